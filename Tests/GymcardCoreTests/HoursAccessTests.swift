import CampusFeature
import CardFeature
import CivilTime
import Foundation
import GymcardCore
import Occupancy
import OpeningHours
import TestSupport
import Testing

/// Opening hours as the `hours` command gets them, in-process.
@Suite struct HoursAccessTests {
    @Test(
        "a facility without hours names the key that gives them: campuses.<name>.hours.<key> for an added campus",
        arguments: [
            ("loc", "campuses.loc.hours.war-memorial-hall"), (nil, "hours.facilities.war-memorial-hall"),
        ])
    func configKey(campus: String?, key: String) throws {
        let home = try TemporaryDirectory()
        try CampusProfileConfig.write(
            home: home.path, name: "loc", timeZone: "America/Toronto", base: "http://127.0.0.1:9",
            facilities: [
                ("war-memorial-hall", "War Memorial Hall", "War", "1799266f-57d9-4cb2-9f43-f5fd88b241db", 100)
            ])
        let context = try Context(
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
                "XDG_CACHE_HOME": home.path + "/cache", "GYMCARD_TEST_NOW": "2026-11-23T17:00:00Z",
            ],
            online: nil
        ) { _ in }
        let settings = try CampusSetup(context: context).settings(campus: campus ?? "loc")
        let zone = try context.zone(settings.timeZone)
        let access = try HoursAccess(
            facilities: ["war-memorial-hall"], zone: zone, now: context.clock.now, campus: campus,
            context: context)
        let (shown, loaded) = access.week(2)
        #expect(loaded.count == 4 && loaded[1] == shown[0])
        let entries = access.entries(settings.facilities, outcome: access.cached(loaded))
        #expect(entries.map(\.configKey) == [key])
        let lines = HoursTextView(zone: zone, now: context.clock.now, colour: false).lines(
            entries, days: shown)
        #expect(
            lines == ["War Memorial Hall · hours unknown (no source: give them in the config file, \(key))"])
    }
}

import CivilTime
import Configuration
import Foundation
import OpeningHours
import TestSupport
import TestTime
import Testing

@Suite("Hours from the config file: weekly hours, dated exceptions, the service's units")
struct HoursSettingsTests {
    let zone = LocalTimeZone.usEastern

    func settings(_ json: String, environment: [String: String] = [:]) throws -> HoursSettings {
        try HoursSettings.resolve(configFile: Data(json.utf8), environment: environment)
    }

    @Test("without a config file: VT's service, McComas unit 1, War Memorial unit 2, the wall unknown")
    func defaults() throws {
        let defaults = try HoursSettings.resolve(configFile: nil, environment: [:])
        #expect(
            defaults.url.absoluteString
                == "https://apps.students.vt.edu/rshours/Api/NonRestricted/UnitsOpenOnDay")
        #expect(defaults.sources["mccomas"]?.unit == "1")
        #expect(defaults.sources["war-memorial"]?.unit == "2")
        #expect(defaults.sources["bouldering-wall"] == nil)
        let moved = try HoursSettings.resolve(
            configFile: nil, environment: ["GYMCARD_HOURS_URL": "http://127.0.0.1:8/h"])
        #expect(moved.url.absoluteString == "http://127.0.0.1:8/h")
    }

    @Test("weekly hours with an exception date: the exception wins that day; a weekday left out is unknown")
    func weeklyWithException() throws {
        let resolved = try settings(
            #"""
            {"hours": {"facilities": {"bouldering-wall": {
              "weekly": {"mon": "16:00-22:00", "sat": ["10:00-13:00", "2:00 PM - 6:00 PM"], "sun": "closed"},
              "exceptions": {"2026-11-23": "closed", "2026-11-28": "12:00-15:00"}}}}}
            """#)
        let schedule = try #require(resolved.sources["bouldering-wall"]).schedule
        #expect(resolved.sources["bouldering-wall"]?.unit == nil)
        let nextMonday = LocalDay(year: 2026, month: 11, day: 30)
        #expect(
            schedule.hours(on: nextMonday, zone: zone)?.intervals.map(\.opens) == [
                zone.date(of: nextMonday, secondOfDay: 16 * 3600)
            ])
        #expect(schedule.hours(on: LocalDay(year: 2026, month: 11, day: 23), zone: zone) == .known([]))
        let saturday = LocalDay(year: 2026, month: 11, day: 21)
        #expect(
            schedule.hours(on: saturday, zone: zone)?.intervals.map(\.closes)
                == [
                    zone.date(of: saturday, secondOfDay: 13 * 3600),
                    zone.date(of: saturday, secondOfDay: 18 * 3600),
                ])
        #expect(
            schedule.hours(on: LocalDay(year: 2026, month: 11, day: 28), zone: zone)?.intervals.count == 1)
        #expect(schedule.hours(on: LocalDay(year: 2026, month: 11, day: 22), zone: zone) == .known([]))
        #expect(schedule.hours(on: LocalDay(year: 2026, month: 11, day: 24), zone: zone) == nil)
    }

    @Test("exceptions alone keep the service's unit (a holiday on top of VT's hours)")
    func exceptionsKeepUnit() throws {
        let resolved = try settings(
            #"{"hours": {"facilities": {"mccomas": {"exceptions": {"2026-11-26": "closed"}}}}}"#)
        #expect(resolved.sources["mccomas"]?.unit == "1")
        #expect(
            resolved.sources["mccomas"]?.schedule.exceptions[LocalDay(year: 2026, month: 11, day: 26)] == [])
    }

    @Test(
        "mistakes name the key and what to write",
        arguments: [
            (
                #"{"hours": {"facilities": {"mccomas": {"weekly": {"fun": "06:00-23:00"}}}}}"#,
                "hours.facilities.mccomas.weekly.fun is not a weekday"
            ),
            (
                #"{"hours": {"facilities": {"mccomas": {"weekly": {"mon": "25:00-26:00"}}}}}"#,
                "hours.facilities.mccomas.weekly.mon: \"25:00-26:00\" is not opening hours"
            ),
            (
                #"{"hours": {"facilities": {"mccomas": {"weekly": {"mon": "06:00-06:00"}}}}}"#,
                "is not opening hours"
            ),
            (
                #"{"hours": {"facilities": {"mccomas": {"exceptions": {"Nov 26": "closed"}}}}}"#,
                "Nov 26 is not a date such as 2026-11-26"
            ),
            (
                #"{"hours": {"facilities": {"mccomas": {"unit": "1", "weekly": {"mon": "closed"}}}}}"#,
                "has both unit and weekly"
            ),
            (#"{"hours": {"url": "not a url"}}"#, "hours.url"),
        ])
    func mistakes(json: String, message: String) {
        do throws(ConfigProblem) {
            _ = try HoursSettings.resolve(configFile: Data(json.utf8), environment: [:])
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }
}

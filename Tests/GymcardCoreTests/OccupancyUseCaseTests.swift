import CampusFeature
import CardFeature
import Configuration
import Console
import Diagnosis
import Events
import Foundation
import GymcardCore
import Occupancy
import Storage
import TestServer
import TestSupport
import Testing

/// What `occupancy --demo`, `events --ics` and `collect --install` do, in-process.
@Suite struct OccupancyUseCaseTests {
    @Test func theDemoDriftsFromOneRefreshToTheNextAndWritesNothing() throws {
        let home = try TemporaryDirectory()
        let context = try DoctorTests.context(home)
        let facilities = try context.config.occupancySettings().facilities
        let next = OccupancyPoll.demo(facilities, clock: context.clock)
        let first = next().report
        let second = next().report
        #expect(first.isDemo && first.facilities.map(\.reading?.occupancy) == [700, 230, 4])
        #expect(second.facilities.map(\.reading?.occupancy) == [724, 242, 4])
        #expect(!FileManager.default.fileExists(atPath: home.path + "/state"))
    }

    @Test func theListedEventsAreWrittenAsACalendarAndCounted() throws {
        let home = try TemporaryDirectory()
        let query = try EventsQuery(context: try DoctorTests.context(home))
        let start = Date(timeIntervalSince1970: 1_795_453_200 + 3600)
        let event = Event(
            id: "1", title: "Yoga", start: start, end: start.addingTimeInterval(3600), location: "McComas",
            hosts: [], categories: [], link: nil, status: .confirmed, description: nil)
        let path = home.path + "/week.ics"
        try NamedOutput.write(query.calendar([event]), to: path)
        #expect(EventsQuery.written([event], to: path) == "wrote 1 event to \(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("SUMMARY:Yoga"))
        #expect(EventsQuery.written([event, event], to: path) == "wrote 2 events to \(path)")
        #expect(throws: NamedOutputProblem.self) {
            try NamedOutput.write(query.calendar([]), to: home.path + "/missing/week.ics")
        }
    }

    @Test func theTimerIsWrittenAndEnabledOrSaysWhyItCannotBeWritten() throws {
        let home = try TemporaryDirectory()
        let context = try DoctorTests.context(home)
        var ran: [[String]] = []
        var warned: [String] = []
        let outcome = try Collecting.install(
            campus: nil, context: context,
            run: {
                ran.append($0); return (0, "")
            }, warn: { warned.append($0) })
        #expect(ran.last == ["systemctl", "--user", "enable", "--now", "gymcard-collect.timer"])
        #expect(outcome.said.count == 2 && outcome.crontabLine == nil)
        // This test runs from a build folder, which the timer should not run.
        #expect(warned.count == 1)
        #expect(
            FileManager.default.fileExists(atPath: home.path + "/config/systemd/user/gymcard-collect.timer"))

        let blocked = try TemporaryDirectory()
        try Data().write(to: URL(fileURLWithPath: blocked.path + "/config"))
        #expect {
            try Collecting.install(
                campus: nil, context: try DoctorTests.context(blocked), run: { _ in (0, "") }, warn: { _ in })
        } throws: { "\($0)".hasPrefix("cannot write the timer: ") }
    }

    @Test func sinceIsADayInTheCampusZoneOrATimeAndDurationsKeepTheirText() throws {
        let home = try TemporaryDirectory()
        let context = try DoctorTests.context(home)
        let settings = try context.config.occupancySettings()
        #expect(try HistoryFiles.start(since: nil, settings: settings, context: context) == nil)
        // Midnight in New York.
        #expect(
            try HistoryFiles.start(since: "2026-11-01", settings: settings, context: context)
                == (try Date("2026-11-01T04:00:00Z", strategy: .iso8601)))
        #expect(
            try HistoryFiles.start(since: "2026-11-01T08:00:00Z", settings: settings, context: context)
                == (try Date("2026-11-01T08:00:00Z", strategy: .iso8601)))
        #expect {
            try HistoryFiles.start(since: "last week", settings: settings, context: context)
        } throws: {
            "\($0)" == "last week is neither a day (2026-11-01) nor an ISO 8601 time (2026-11-01T08:00:00Z)"
        }
        #expect(GivenDuration("2h30m") == GivenDuration(seconds: 9000, text: "2h30m"))
        #expect(GivenDuration("30s")?.seconds == 30 && GivenDuration("soon") == nil)
    }

    @Test func theHeatmapIsWrittenAsAPNGOrSaysWhereItCouldNot() throws {
        let home = try TemporaryDirectory()
        let context = try DoctorTests.context(home)
        let window = try HistoryWindow(
            settings: context.config.occupancySettings(), weeks: 8, demo: true, context: context)
        let facilities = try window.heatmaps(window.settings.facilities)
        try NamedOutput.write(window.png(facilities), to: home.path + "/trends.png")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: home.path + "/trends.png"))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(throws: NamedOutputProblem.self) {
            try NamedOutput.write(window.png(facilities), to: home.path + "/missing/t.png")
        }
    }
}

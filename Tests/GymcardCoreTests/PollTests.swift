import CampusFeature
import CardFeature
import CivilTime
import Console
import Fetching
import FetchingCurl
import Foundation
import GymcardCore
import History
import Occupancy
import OpeningHours
import Storage
import TestServer
import TestSupport
import Testing
import Trends

/// A local RecSports for the use cases: every facility's POST answers `values[id]` (a 503 without one),
/// the hours service every day's regular hours (McComas 6:00–23:00, War Memorial 6:00–0:00).
final class Campus: Sendable {
    let values: Locked<[String: Int]>
    let requests = Locked(0)
    let server: LocalServer

    init(_ values: [String: Int]) async throws {
        let current = Locked(values)
        let requests = requests
        self.values = current
        server = try await LocalServer { request in
            if request.path.contains("/Date/") {
                return LocalServer.Response(contentType: "application/json", Campus.hours)
            }
            requests.withLock { $0 += 1 }
            let id = request.formFields["facilityId"] ?? ""
            guard let facility = OccupancySettings.virginiaTech.facilities.first(where: { $0.id == id }),
                let value = current.withLock({ $0[facility.key] })
            else { return LocalServer.Response(status: 503, "down") }
            return LocalServer.Response(
                OccupancyFragments.fragment(
                    id: id, name: facility.name, occupancy: "\(value)",
                    remaining: "\(facility.capacity - value)", maxOccupancy: "\(facility.capacity)"))
        }
    }

    static let hours = """
        [{"id": "1", "name": "McComas Hall", "hours": [{"start": "2026-01-01T00:00:00", "end": "2026-12-31T00:00:00", \
        "open_time": "06:00:00", "close_time": "23:00:00", "title": "Regular Hours", "label": "Regular Hours"}]},
         {"id": "2", "name": "War Memorial Hall", "hours": [{"start": "2026-01-01T00:00:00", "end": "2026-12-31T00:00:00", \
        "open_time": "06:00:00", "close_time": "00:00:00", "title": "Regular Hours", "label": "Regular Hours"}]}]
        """

    /// A context at `now` over a temporary XDG tree, pointed at this server; sleeps 600 times shorter.
    func context(_ home: TemporaryDirectory, now: String) throws -> Context {
        try Context(
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
                "XDG_STATE_HOME": home.path + "/state",
                "XDG_CACHE_HOME": home.path + "/cache", "XDG_DATA_HOME": home.path + "/data",
                "GYMCARD_TEST_NOW": now, "GYMCARD_TEST_TIME_SCALE": "600",
                "GYMCARD_OCCUPANCY_URL": server.url("/FacilityOccupancy/GetFacilityData").absoluteString,
                "GYMCARD_HOURS_URL": server.url("/rshours/Api/NonRestricted/UnitsOpenOnDay").absoluteString,
            ], online: nil
        ) { _ in }
    }

    static let fetcher = Fetcher(client: CurlClient(userAgent: "gymcard/test"), policy: FetchPolicy())
}

/// 12:00 and 4:00 in New York on a Monday.
let noon = "2026-11-23T17:00:00Z"
private let fourInTheMorning = "2026-11-23T09:00:00Z"

@Suite("The poll, the wait loop and collection, in process")
struct PollTests {
    @Test func aPollAppliesTheHoursAndRecordsReadingsTakenWhileClosedAsClosed() async throws {
        let campus = try await Campus(["mccomas": 12, "war-memorial": 30, "bouldering-wall": 1])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: fourInTheMorning)
        let settings = try context.config.occupancySettings()
        let outcome = try await OccupancyPoll(settings: settings, context: context).poll(
            fetcher: Campus.fetcher)
        #expect(outcome.report.facilities.map(\.opening.isClosed) == [true, true, false])
        #expect(outcome.attempt == .success)
        #expect(outcome.notRecorded == nil)
        let store = try #require(try HistoryFiles.openForReading(context, campus: nil))
        let readings = try store.readings(from: .distantPast, to: .distantFuture)
        #expect(Set(readings.filter { $0.status == .closed }.map(\.facility)) == ["mccomas", "war-memorial"])
        // The cached answer needs no network and says the same about the hours.
        let cached = try OccupancyPoll(settings: settings, context: context).cached()
        #expect(cached.report.facilities.map(\.opening.isClosed) == [true, true, false])
    }

    @Test func pollsAreSpacedFromWhenEachBeganSoAThreeMinuteWaitChecksAtItsEnd() async throws {
        // Each fetch takes 5 s of the clock: spaced from their ends, `--timeout 3m` gave up after 2 min.
        let clock = CurrentTime(simulatedFrom: Date(timeIntervalSince1970: 1_795_453_200), speed: 10_000)
        let facility = OccupancySettings.virginiaTech.facilities[0]
        let demo = OccupancyPoll.demo([facility], clock: clock)
        let started = clock.now
        var polls: [Double] = []
        let loop = WaitLoop(
            facility: facility, condition: WaitCondition(threshold: .percent(0), holdSeconds: 0),
            intervalSeconds: 60, timeoutSeconds: 180)
        let end = try await loop.run(
            next: { () async throws(FetchError) in
                polls.append(clock.now.timeIntervalSince(started))
                try? await clock.sleep(seconds: 5)
                return demo()
            }, clock: clock, redrawSeconds: nil, warn: { _ in }, show: { _ in })
        guard case .timedOut = end else { return #expect(Bool(false), "\(end)") }
        #expect(polls.map { $0.rounded() } == [0, 60, 120, 180])
    }

    @Test func aWaitShorterThanAMinuteIsOneCheckThenTimedOut() async throws {
        let campus = try await Campus(["mccomas": 500, "war-memorial": 30, "bouldering-wall": 1])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: noon)
        var settings = try context.config.occupancySettings()
        let mccomas = try settings.facilities(matching: "mcc")[0]
        settings.facilities = [mccomas]
        let loop = WaitLoop(
            facility: mccomas, condition: WaitCondition(threshold: .percent(30), holdSeconds: 0),
            intervalSeconds: 120, timeoutSeconds: 30)
        let end = try await loop.run(
            poll: try OccupancyPoll(settings: settings, context: context), fetcher: Campus.fetcher,
            clock: context.clock, redraws: false, warn: { _ in }, show: { _ in })
        #expect(end == .timedOut(latest: OccupancyReading(occupancy: 500, capacity: 600)))
        #expect(campus.requests.withLock { $0 } == 1)
    }

    @Test func aWaitHeldForTenMinutesOfPollsIsMetAndAClosedFacilityEndsIt() async throws {
        let campus = try await Campus(["mccomas": 100, "war-memorial": 30, "bouldering-wall": 1])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: noon)
        var settings = try context.config.occupancySettings()
        let mccomas = settings.facilities[1]
        settings.facilities = [mccomas]
        let loop = WaitLoop(
            facility: mccomas, condition: WaitCondition(threshold: .percent(30), holdSeconds: 600),
            intervalSeconds: 120, timeoutSeconds: nil)
        let poll = try OccupancyPoll(settings: settings, context: context)
        let end = try await loop.run(
            poll: poll, fetcher: Campus.fetcher, clock: context.clock, redraws: false, warn: { _ in },
            show: { _ in })
        guard case .met(let reading, let held) = end else { Issue.record("\(end)"); return }
        #expect(reading.occupancy == 100 && held >= 600)
        #expect(campus.requests.withLock { $0 } == 6)

        let early = try campus.context(home, now: fourInTheMorning)
        let closed = try await loop.run(
            poll: try OccupancyPoll(settings: settings, context: early), fetcher: Campus.fetcher,
            clock: early.clock, redraws: false, warn: { _ in }, show: { _ in })
        guard case .closed(let opensAt?) = closed else { Issue.record("\(closed)"); return }
        #expect(opensAt == (try Date("2026-11-23T11:00:00Z", strategy: .iso8601)))
    }

    @Test func collectSkipsASampleMomentsAfterAnotherAndTheStatusCountsThem() async throws {
        let campus = try await Campus(["mccomas": 100, "war-memorial": 30, "bouldering-wall": 1])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: noon)
        let settings = try context.config.occupancySettings()
        #expect(try Collecting.skipsRecent(context, campus: nil) == false)
        _ = try await OccupancyPoll(settings: settings, context: context).poll(fetcher: Campus.fetcher)
        #expect(try Collecting.skipsRecent(context, campus: nil))
        let status = try Collecting.status(context, settings: settings)
        #expect(status.report?.perDay.first?.samples == 1)
        #expect(status.report?.lastAttempt?.status == .success, "a skipped sample is not an attempt tried")
        #expect(status.timerInstalled == false && status.isStale == false)
    }

    @Test func anEmptyHistoryHasNoUsualValueAndSuggestsNothingForThinHistoryButClosedHoursSaySo() throws {
        let home = try TemporaryDirectory()
        let context = try Context(
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "GYMCARD_TEST_NOW": noon],
            online: nil
        ) { _ in }
        let window = try HistoryWindow(settings: .virginiaTech, weeks: 8, context: context)
        let heatmaps = try window.heatmaps(OccupancySettings.virginiaTech.facilities)
        #expect(HistoryWindow.hasUsualValue(heatmaps) == false)
        guard
            case .thinHistory = window.suggestions(
                heatmaps[0].heatmap, hours: .unknown, days: [], lengthSeconds: 5400, horizonSeconds: 43_200)
        else {
            Issue.record("expected thin history")
            return
        }
        // Known to be closed all the way ahead (a holiday), or open for less than the workout: that is
        // the answer, not the history a closed facility cannot have.
        let zone = window.zone
        let today = zone.day(of: window.now)
        let days = (0...1).map { today.adding(days: $0) }
        let closed = FacilityHours(
            days: Dictionary(uniqueKeysWithValues: days.map { ($0, DayHours.known([])) }))
        let briefly = FacilityHours(days: [
            today: .known([OpeningInterval(opens: window.now, closes: window.now.addingTimeInterval(3600))]),
            today.adding(days: 1): .known([]),
        ])
        for hours in [closed, briefly] {
            guard
                case .outsideHours(known: true) = window.suggestions(
                    heatmaps[0].heatmap, hours: hours, days: days, lengthSeconds: 5400, horizonSeconds: 43_200
                )
            else {
                Issue.record("expected no time within opening hours for \(hours)")
                continue
            }
        }
    }
}

@Suite("What a poll, a sample, the hours and an import lacked, and how occupancy shows it, in process")
struct PollOutcomeTests {
    @Test func aSampleSaysWhatFailedAndASecondMomentsLaterIsSkipped() async throws {
        // The wall's POST answers 503: partly; then nothing answers: nothing fetched.
        let campus = try await Campus(["mccomas": 100, "war-memorial": 30])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let settings = try campus.context(home, now: noon).config.occupancySettings()
        let partly = try await Collecting.sample(
            settings: settings, context: try campus.context(home, now: noon), fetcher: { Campus.fetcher })
        guard case .partly(let problems) = partly else {
            Issue.record("\(String(describing: partly))"); return
        }
        #expect(problems.contains("Bouldering Wall"), "\(problems)")
        // A minute after the sample as recorded: the test clock runs 600 times faster than the real one,
        // so on a loaded machine the first sample may end minutes (test time) after noon.
        let recorded = try #require(
            try HistoryFiles.openForReading(try campus.context(home, now: noon), campus: settings.campus)?
                .lastTriedAttempt())
        #expect(
            try await Collecting.sample(
                settings: settings,
                context: try campus.context(home, now: recorded.at.addingTimeInterval(60).ISO8601Format()),
                fetcher: { throw FetchError.cancelled }) == nil, "skipped before the network is asked for")
        campus.values.withLock { $0 = [:] }
        let nothing = try await Collecting.sample(
            settings: settings,
            context: try campus.context(home, now: recorded.at.addingTimeInterval(600).ISO8601Format()),
            fetcher: { Campus.fetcher })
        guard case .nothing = nothing else { Issue.record("\(String(describing: nothing))"); return }
    }

    @Test func occupancyShowsAWatchFrameInPlaceAndNamesWhatWasLacking() async throws {
        let campus = try await Campus(["mccomas": 100, "war-memorial": 30])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: noon)
        let settings = try context.config.occupancySettings()
        let poll = try OccupancyPoll(settings: settings, context: context)
        let outcome = try await poll.poll(fetcher: Campus.fetcher)
        #expect(outcome.shortfall(cached: false) == .partlyStale)
        let display = OccupancyDisplay(
            format: .text, columns: 40, colour: nil, zone: poll.zone)
        let frame = display.watchFrame(outcome, redraw: true)
        #expect(frame.redrawn)
        var place = LinesInPlace(columns: 40)
        _ = place.frame(["one", "two", "three", "four", "five"])
        let output = place.frame(frame.lines)
        #expect(output.hasPrefix("\u{1B}[5F\u{1B}[J"))
        let lines = output.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(place.drawn == lines.count)
        let updated = String(lines.last ?? "")
        #expect(updated.hasPrefix("updated 12:0"), "in the facilities' zone: \(updated)")
        #expect(updated.hasSuffix("; next in 30 s; Ctrl-C …"), "cut to the 40 columns: \(updated)")
        #expect(lines.allSatisfy { $0.contains("\u{1B}") || $0.count <= 40 }, "\(lines)")
        #expect(frame.warnings.isEmpty)
        let piped = display.watchFrame(outcome, redraw: false)
        #expect(!piped.redrawn && piped.lines.count == 1)
        #expect(piped.lines[0].hasPrefix("{") && piped.lines[0].hasSuffix("}"), "JSON lines for text piped")
        #expect(piped.warnings.contains { $0.contains("Bouldering Wall") })

        let fresh = try TemporaryDirectory()
        let nothing = try OccupancyPoll(settings: settings, context: try campus.context(fresh, now: noon))
            .cached()
        #expect(nothing.shortfall(cached: true) == .nothingAvailable(cached: true))
        #expect("\(OccupancyShortfall.nothingAvailable(cached: true))" == "no occupancy data stored yet")
    }

    @Test func theHoursSayWhetherAnythingIsKnownWhenTheServiceFails() async throws {
        let campus = try await Campus([:])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let week = try await HoursWeek.load(
            facility: "mcc", days: 3, settings: .virginiaTech, context: try campus.context(home, now: noon),
            fetcher: { Campus.fetcher })
        #expect(week.shortfall == nil && week.entries.map(\.key) == ["mccomas"])
        #expect(week.lines(colour: false).contains { $0.contains("6:00 AM – 11:00 PM  ◂ today") })
        let other = try TemporaryDirectory()
        var environment = try campus.context(other, now: noon).environment
        environment["GYMCARD_HOURS_URL"] = "http://127.0.0.1:9/rshours"
        let down = try await HoursWeek.load(
            facility: nil, days: 3, settings: .virginiaTech,
            context: try Context(environment: environment, online: nil) { _ in }, fetcher: { Campus.fetcher })
        #expect(down.shortfall == .nothingKnown)
    }

    @Test func anImportAddsWhatIsNewAndAMalformedFileNothing() throws {
        let home = try TemporaryDirectory()
        let context = try Context(
            environment: [
                "HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "GYMCARD_TEST_NOW": noon,
            ],
            online: nil
        ) { _ in }
        let file = home.path + "/export.csv"
        try """
        facility,fetched_at,source_time,occupancy,capacity,status
        mccomas,2026-11-20T15:00:00Z,,120,600,ok
        mccomas,2026-11-20T15:05:00Z,,130,600,ok
        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
            try HistoryImport.run(file, settings: .virginiaTech, context: context).summary
                == "imported 2 readings from \(file)")
        #expect(
            try HistoryImport.run(file, settings: .virginiaTech, context: context).summary
                == "imported 0 readings from \(file) (2 already in the history)")
        try "facility,fetched_at\nmccomas,yesterday\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: HistoryImport.Problem.self) {
            try HistoryImport.run(file, settings: .virginiaTech, context: context)
        }
        #expect(throws: HistoryImport.Problem.missing(home.path + "/none")) {
            try HistoryImport.run(home.path + "/none", settings: .virginiaTech, context: context)
        }
    }
}

import Foundation
import History
import TestServer
import TestSupport
import Testing

/// What `occupancy`, `wait` and `collect` share (one poll, one facility lookup) seen from the process:
/// the answers that once differed from command to command. Time runs 600 times as fast in `wait`.
@Suite("One poll under occupancy, wait and collect, end to end")
struct PollCommandTests {
    private func waiting(_ process: GymcardProcess) -> GymcardProcess {
        var process = process
        process.environment["GYMCARD_TEST_TIME_SCALE"] = "600"
        return process
    }

    /// A campus read by page, added as `name`, whose page says "Last updated 2:56 PM" every time.
    private func campus(percentOnly: Bool, name: String) async throws -> (
        FakeCampus, GymcardProcess, TemporaryDirectory
    ) {
        let card = FusionCampusPages.Card(
            id: "1799266f-57d9-4cb2-9f43-f5fd88b241db", name: "Fitness Center", capacity: 150, value: 45,
            percentOnly: percentOnly)
        let campus = try await FakeCampus(
            FusionCampusPages.page([card], layout: percentOnly ? .percentText : .charts))
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": mondayNoon])
        let added = try await process.run([
            "campus", "add", campus.base, "--name", name, "--time-zone", "America/Toronto",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        return (campus, process, home)
    }

    @Test("wait finds a facility by a prefix of its name, as trends does")
    func waitTakesTheOneLookup() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await waiting(fake.gymcard(home, now: mondayNoon)).run([
            "wait", "--below", "30%", "--facility", "war",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "War Memorial Hall is at 13% (165/1200), below 30%\n")
    }

    @Test("a repeated source reading counts once: the same 'last updated' never builds a hold")
    func repeatedSourceReading() async throws {
        let (campus, process, home) = try await campus(percentOnly: false, name: "ucsc")
        defer { Task { await campus.server.stop() } }
        defer { withExtendedLifetime(home) {} }
        let result = try await waiting(process).run([
            "wait", "--campus", "ucsc", "--below", "50%", "--for", "4m", "--timeout", "10m",
        ])
        #expect(result.status == 124, "\(result.stdoutText) \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a percent-only campus: the wait's line shows the percent, no invented head count")
    func percentOnlyWaitLine() async throws {
        let (campus, process, home) = try await campus(percentOnly: true, name: "tmu")
        defer { Task { await campus.server.stop() } }
        defer { withExtendedLifetime(home) {} }
        let result = try await waiting(process).run(["wait", "--campus", "tmu", "--below", "50%"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "Fitness Center is at 45%, below 50%\n")
    }

    @Test("--timeout 30s: one check, then 124; durations under a minute are taken")
    func shortTimeout() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        fake.values.withLock { $0[mccomasID] = 500 }
        let home = try TemporaryDirectory()
        let result = try await waiting(fake.gymcard(home, now: mondayNoon)).run([
            "wait", "--below", "30%", "--facility", "mccomas", "--timeout", "30s",
        ])
        #expect(result.status == 124, "\(result.stderr)")
        #expect(result.stderr == "gymcard: McComas Hall did not stay below 30% within 30s (it is at 83%)\n")
        #expect(fake.requests.withLock { $0[mccomasID] } == 1)
    }

    @Test("collect loads opening hours: a reading while closed is recorded closed, as occupancy records it")
    func collectRecordsClosed() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        fake.hours.withLock { $0["*"] = FakeRecSports.regularHours }
        let home = try TemporaryDirectory()
        // 4:00 in New York: McComas and War Memorial are closed.
        let result = try await fake.gymcard(home, now: "2026-11-23T09:00:00Z").run(["collect"])
        #expect(result.status == 0, "\(result.stderr)")
        let store = try #require(
            try HistoryStore.openIfPresent(path: home.path + "/state/gymcard/history.sqlite3"))
        let readings = try store.readings(from: .distantPast, to: .distantFuture)
        let statuses = Dictionary(uniqueKeysWithValues: readings.map { ($0.facility, $0.status) })
        #expect(statuses == ["war-memorial": .closed, "mccomas": .closed, "bouldering-wall": .ok])
    }
}

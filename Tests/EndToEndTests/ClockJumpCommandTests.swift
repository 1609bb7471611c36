import Foundation
import History
import TestServer
import TestSupport
import Testing

/// The clock of a laptop booted with its clock ahead (before NTP), and the right one.
private let ahead = "2026-11-26T12:00:00Z"
private let right = "2026-11-20T15:00:00Z"

/// `right` moved by some minutes, in ISO 8601.
private func minutes(_ count: Int, after time: String = right) throws -> String {
    try Date(time, strategy: .iso8601).addingTimeInterval(Double(count) * 60).formatted(.iso8601)
}

extension FakeRecSports {
    /// Every facility's next answer: War Memorial, McComas, the wall.
    func answer(_ warMemorial: Int, _ mccomas: Int, _ wall: Int) {
        values.withLock { $0 = [warMemorialID: warMemorial, mccomasID: mccomas, wallID: wall] }
    }
}

private func waybar(_ result: GymcardProcess.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
}

@Suite("occupancy, --cached and collect across the clock jumping ahead and back, end to end")
struct ClockJumpCommandTests {
    @Test(
        "a reading dated in the future is shown stale, never fresh, and the next live reading replaces it")
    func futureReading() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        #expect(try await fake.gymcard(home, now: ahead).run(["occupancy"]).status == 0)

        // NTP sets the clock right. Until a live reading, --cached shows that one for what it is.
        let text = try await fake.gymcard(home, now: right).run(["occupancy", "--cached"])
        #expect(text.status == 75, "\(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasSuffix("stale (read 5 days in the future)") }, "\(text.stdoutText)")
        let tmux = try await fake.gymcard(home, now: right).run(["occupancy", "--cached", "--format", "tmux"])
        #expect(tmux.stdoutText == "WM 13%* McC 38%* Wall 4/8*\n")
        let module = try waybar(
            try await fake.gymcard(home, now: right).run(["occupancy", "--cached", "--format", "waybar"]))
        #expect(module["class"] as? [String] == ["medium", "stale"], "the wall is half full")
        #expect((module["tooltip"] as? String)?.contains("370 left, 5 days in the future") == true)
        let json = try await fake.gymcard(home, now: right).run(["occupancy", "--cached", "--json"])
        let document = try #require(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let facilities = try #require(document["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["status"] as? String } == ["stale", "stale", "stale"])
        #expect(
            facilities.first?["problem"] as? String
                == "the stored reading is dated 5 days in the future; the clock was wrong when it was read, or is now"
        )

        // A live reading with the clock right is saved over it, and the status bars show it as current.
        fake.answer(600, 120, 6)
        #expect(try await fake.gymcard(home, now: right).run(["occupancy"]).status == 0)
        let later = fake.gymcard(home, now: try minutes(1))
        let current = try await later.run(["occupancy", "--cached", "--format", "tmux"])
        #expect(current.stdoutText == "WM 50% McC 20% Wall 6/8\n")
        let currentModule = try waybar(try await later.run(["occupancy", "--cached", "--format", "waybar"]))
        #expect(currentModule["class"] as? [String] == ["high"], "the wall is 6 of 8")
        #expect(currentModule["text"] as? String == "WM 50% · McC 20% · Wall 6/8")
        #expect(try await later.run(["occupancy", "--cached"]).status == 0)

        // Ahead again (the next boot), then right again: each live reading is the one kept.
        fake.answer(900, 300, 2)
        #expect(
            try await fake.gymcard(home, now: try minutes(10, after: ahead)).run(["occupancy"]).status == 0)
        let aheadAgain = try await fake.gymcard(home, now: try minutes(11, after: ahead))
            .run(["occupancy", "--cached", "--format", "tmux"])
        #expect(aheadAgain.stdoutText == "WM 75% McC 50% Wall 2/8\n")
        fake.answer(165, 230, 4)
        #expect(try await fake.gymcard(home, now: try minutes(20)).run(["occupancy"]).status == 0)
        let rightAgain = try await fake.gymcard(home, now: try minutes(21))
            .run(["occupancy", "--cached", "--format", "tmux"])
        #expect(rightAgain.stdoutText == "WM 13% McC 38% Wall 4/8\n")
    }

    @Test("readings more than a day old: --cached and a failed fetch show them stale with their age")
    func oldReadings() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        #expect(try await fake.gymcard(home, now: right).run(["occupancy"]).status == 0)
        await fake.server.stop()
        let threeDaysLater = fake.gymcard(home, now: try minutes(3 * 24 * 60))

        let text = try await threeDaysLater.run(["occupancy", "--cached"])
        #expect(text.status == 75)
        #expect(text.stderr.isEmpty, "not 'no occupancy data stored yet': \(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasSuffix("stale (read 3 days ago)") }, "\(text.stdoutText)")
        let tmux = try await threeDaysLater.run(["occupancy", "--cached", "--format", "tmux"])
        #expect(tmux.status == 0)
        #expect(tmux.stdoutText == "WM 13%* McC 38%* Wall 4/8*\n")
        let module = try waybar(
            try await threeDaysLater.run(["occupancy", "--cached", "--format", "waybar"]))
        #expect(module["class"] as? [String] == ["medium", "stale"], "the wall is half full")
        #expect((module["tooltip"] as? String)?.contains("370 left, 3 days ago") == true)

        // Offline: the fetch fails, and the stored readings are what there is.
        let offline = try await threeDaysLater.run(["occupancy", "--timeout", "2"])
        #expect(offline.status == 75, "\(offline.stderr)")
        #expect(offline.stderr.contains("Bouldering Wall (showing its value from 3 days ago)"))
        #expect(
            offline.stdoutText.split(separator: "\n").allSatisfy { $0.hasSuffix("stale (read 3 days ago)") })
    }

    @Test(
        "collect and the history: a clock ahead, then set right, then reaching the stamps it wrote; nothing lost, nothing twice"
    )
    func collectAcrossJumps() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        // An hour ahead (a hardware clock kept in local time, say), at 16:00.
        let hourAhead = try minutes(60)
        #expect(try await fake.gymcard(home, now: hourAhead).run(["collect", "--timeout", "20"]).status == 0)

        // Set right; 15:05: sampled, and the status bars follow.
        fake.answer(600, 120, 6)
        let sampled = try await fake.gymcard(home, now: try minutes(5)).run(["collect", "--timeout", "20"])
        #expect(sampled.status == 0, "\(sampled.stderr)")
        let tmux = try await fake.gymcard(home, now: try minutes(5)).run([
            "occupancy", "--cached", "--format", "tmux",
        ])
        #expect(tmux.stdoutText == "WM 50% McC 20% Wall 6/8\n")
        // 15:06, a minute after that sample: skipped, as any sample moments after another.
        let skipped = try await fake.gymcard(home, now: try minutes(6)).run(["collect", "--timeout", "20"])
        #expect(skipped.status == 0)

        // 16:00 again: the last sample was 55 minutes ago, so this one is taken, and kept beside the
        // readings stamped 16:00 an hour earlier; the same reading from `occupancy` is not stored twice.
        fake.answer(900, 300, 2)
        let again = try await fake.gymcard(home, now: hourAhead).run(["collect", "--timeout", "20"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try await fake.gymcard(home, now: hourAhead).run(["occupancy"]).status == 0)

        let store = try #require(
            try HistoryStore.openIfPresent(path: home.path + "/state/gymcard/history.sqlite3"))
        let attempts = try store.attempts(
            from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9))
        #expect(attempts.filter { $0.status == .success }.count == 4)
        #expect(
            attempts.filter { $0.status == .skipped }.map(\.at) == [
                try Date(try minutes(6), strategy: .iso8601)
            ])
        let mccomas = try store.readings(
            facility: "mccomas", from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9))
        let start = try Date(right, strategy: .iso8601)
        #expect(
            mccomas.map { [Int($0.fetchedAt.timeIntervalSince(start) / 60), $0.occupancy] }
                .sorted { ($0[0], $0[1]) < ($1[0], $1[1]) } == [[5, 120], [60, 230], [60, 300]])
    }
}

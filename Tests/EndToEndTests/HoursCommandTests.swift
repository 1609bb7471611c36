import Foundation
import TestServer
import TestSupport
import Testing

/// Monday 23 November 2026, noon in New York.
let mondayNoon = "2026-11-23T17:00:00Z"

@Suite("gymcard hours, and opening hours in occupancy, end to end")
struct HoursCommandTests {
    func fakeWithHours() async throws -> FakeRecSports {
        let fake = try await FakeRecSports()
        fake.hours.withLock {
            $0["*"] = FakeRecSports.regularHours
            $0["2026-11-26"] = """
                [{"id": "1", "hours": [{"start": "2026-11-26", "end": "2026-11-26", "open_time": "00:00", \
                "close_time": "00:00", "title": "Thanksgiving - Closed", "label": "Holiday"}]},
                 {"id": "2", "hours": [{"start": "2026-11-26", "end": "2026-11-26", "open_time": "10:00", \
                "close_time": "14:00", "title": "Holiday Hours", "label": "Holiday Hours"}]}]
                """
        }
        return fake
    }

    @Test(
        "hours: the week, today marked, closed days with their note, the wall without a source; then the cache"
    )
    func text() async throws {
        let fake = try await fakeWithHours()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await fake.gymcard(home, now: mondayNoon).run(["hours", "--days", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdoutText == """
                War Memorial Hall · open until midnight
                  Mon, Nov 23  6:00 AM – midnight  ◂ today
                  Tue, Nov 24  6:00 AM – midnight
                  Wed, Nov 25  6:00 AM – midnight
                  Thu, Nov 26  10:00 AM – 2:00 PM (Holiday Hours)

                McComas Hall · open until 11:00 PM
                  Mon, Nov 23  6:00 AM – 11:00 PM  ◂ today
                  Tue, Nov 24  6:00 AM – 11:00 PM
                  Wed, Nov 25  6:00 AM – 11:00 PM
                  Thu, Nov 26  closed (Thanksgiving)

                Bouldering Wall · hours unknown (no source: give them in the config file, hours.facilities.bouldering-wall)

                """, "\(result.stdoutText)")
        // Yesterday, the four days and the next (for when it opens after the last), then kept: the service going away changes nothing
        // within the hour.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: home.path + "/cache/gymcard/hours").sorted()
                == [
                    "2026-11-22.json", "2026-11-23.json", "2026-11-24.json", "2026-11-25.json",
                    "2026-11-26.json", "2026-11-27.json",
                ])
        fake.hoursFailing.withLock { $0 = true }
        let cached = try await fake.gymcard(home, now: mondayNoon).run(["hours", "mccomas", "--days", "4"])
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(cached.stderr.isEmpty)
        #expect(cached.stdoutText.hasPrefix("McComas Hall · open until 11:00 PM\n"))
        // Three hours later the copy is old: still shown, with one warning and exit 75.
        let old = try await fake.gymcard(home, now: "2026-11-23T20:00:00Z").run([
            "hours", "mccomas", "--timeout", "20",
        ])
        #expect(old.status == 75)
        #expect(
            old.stderr.hasPrefix("gymcard: opening hours: 127.0.0.1 has a problem of its own (HTTP 503)"),
            "\(old.stderr)")
        #expect(old.stderr.contains("using the copy fetched 3 h ago"), "\(old.stderr)")
        #expect(old.stdoutText.hasPrefix("McComas Hall · open until 11:00 PM\n"))
    }

    @Test("hours with nothing known (service down, no cache): unknown, never open; exit 69")
    func nothingKnown() async throws {
        let fake = try await fakeWithHours()
        defer { Task { await fake.server.stop() } }
        fake.hoursFailing.withLock { $0 = true }
        let home = try TemporaryDirectory()
        let result = try await fake.gymcard(home, now: mondayNoon).run([
            "hours", "mccomas", "--timeout", "20",
        ])
        #expect(result.status == 69)
        #expect(result.stdoutText.hasPrefix("McComas Hall · hours unknown\n"), "\(result.stdoutText)")
        #expect(!result.stdoutText.contains("open until"))
    }

    @Test("hours with a cache that cannot be written: shown, then said, exit 74 as events does")
    func unwritableCache() async throws {
        let fake = try await fakeWithHours()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        // A file where the cache's folder should be.
        try FileManager.default.createDirectory(
            atPath: home.path + "/cache/gymcard", withIntermediateDirectories: true)
        try "in the way".write(toFile: home.path + "/cache/gymcard/hours", atomically: true, encoding: .utf8)
        let result = try await fake.gymcard(home, now: mondayNoon).run(["hours", "mccomas", "--days", "2"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("McComas Hall · open until 11:00 PM\n"), "\(result.stdoutText)")
        #expect(result.stderr.contains("the opening hours were shown but not cached"), "\(result.stderr)")
    }

    @Test("hours --json: open true/false/null, opensAt, closesAt, the days with their intervals in UTC")
    func json() async throws {
        let fake = try await fakeWithHours()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        // 4:00 in New York: both gyms closed until 6:00.
        let result = try await fake.gymcard(home, now: "2026-11-23T09:00:00Z").run([
            "hours", "--json", "--days", "4",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(document["timeZone"] as? String == "America/New_York")
        let facilities = try #require(document["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["key"] as? String } == ["war-memorial", "mccomas", "bouldering-wall"])
        #expect(facilities.map { $0["open"] as? Bool } == [false, false, nil])
        #expect(facilities[2]["open"] is NSNull)
        #expect(facilities[1]["opensAt"] as? String == "2026-11-23T11:00:00Z")
        let days = try #require(facilities[1]["days"] as? [[String: Any]])
        #expect(
            days.map { $0["date"] as? String } == ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"])
        #expect(days[3]["closed"] as? Bool == true)
        let first = try #require((days[0]["intervals"] as? [[String: Any]])?.first)
        #expect(first["opens"] as? String == "2026-11-23T11:00:00Z")
        #expect(first["closes"] as? String == "2026-11-24T04:00:00Z")
    }

    @Test(
        "occupancy: closed says when it opens; JSON open/opensAt; waybar class and alt closed; tmux says closed"
    )
    func occupancyClosed() async throws {
        let fake = try await fakeWithHours()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        // 23:30 in New York: McComas closed (opens tomorrow at 6:00), War Memorial open until midnight.
        let gymcard = fake.gymcard(home, now: "2026-11-24T04:30:00Z")
        let text = try await gymcard.run(["occupancy"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("War Memorial Hall  ██░░░░░░░░░░░░   165 / 1.2k   13%"), "\(lines)")
        #expect(lines[0].hasSuffix("closes in 30 min"), "\(lines)")
        #expect(lines[1] == "McComas Hall       closed · opens tomorrow at 6:00 AM", "\(lines)")

        let json = try await gymcard.run(["occupancy", "--json"])
        let document = try #require(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let facilities = try #require(document["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["open"] as? Bool } == [true, false, nil])
        #expect(facilities[2]["open"] is NSNull)
        #expect(facilities[0]["closesAt"] as? String == "2026-11-24T05:00:00Z")
        #expect(facilities[1]["opensAt"] as? String == "2026-11-24T11:00:00Z")
        // The reading itself is fine; whether the doors are open is `open`.
        #expect(facilities[1]["status"] as? String == "ok")

        let waybar = try await gymcard.run(["occupancy", "--format", "waybar"])
        #expect(waybar.status == 0)
        let module = try #require(JSONSerialization.jsonObject(with: waybar.stdout) as? [String: Any])
        #expect(module["text"] as? String == "WM 13% · McC closed · Wall 4/8", "\(module)")
        #expect(
            (module["tooltip"] as? String ?? "").contains("McComas Hall: closed, opens tomorrow at 6:00 AM"),
            "\(module)")

        // At 4:00 everything with hours is closed: the whole module is closed.
        let night = try await fake.gymcard(home, now: "2026-11-24T09:00:00Z").run([
            "occupancy", "--format", "waybar",
        ])
        let nightModule = try #require(JSONSerialization.jsonObject(with: night.stdout) as? [String: Any])
        #expect(
            nightModule["class"] as? [String] == ["closed"]
                || (nightModule["class"] as? [String] ?? []).contains("closed"), "\(nightModule)")
        let tmux = try await fake.gymcard(home, now: "2026-11-24T09:00:00Z").run([
            "occupancy", "--format", "tmux",
        ])
        #expect(tmux.stdoutText == "WM closed McC closed Wall 4/8\n", "\(tmux.stdoutText)")
    }
}

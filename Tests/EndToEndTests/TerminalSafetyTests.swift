import Foundation
import TestServer
import TestSupport
import Testing

/// A label as an attacker would write it: red text, a new window title, a bell, a line break.
private let evilLabel = "evil\u{1B}[31mRED\u{1B}]0;title\u{07}\nx"
/// The same label as every printer shows it.
private let evilLabelShown = "evil\\e[31mRED\\e]0;title\\a\\nx"

/// Saturday 2026-11-21 14:00 in New York = 19:00 UTC (as in EventsCommandTests).
private let nowText = "2026-11-21T19:00:00Z"

/// Bytes that steer a terminal: C0 controls but the line feed, DEL, and the UTF-8 of U+0080–U+009F and
/// of the bidirectional controls.
private func steeringBytes(_ text: String) -> [String] {
    text.unicodeScalars.compactMap { scalar in
        switch scalar.value {
        case 0x0A: nil
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
            "U+" + String(scalar.value, radix: 16)
        default: nil
        }
    }
}

// One test at a time: the network ones run gymcard-network against servers in this process.
@Suite("text gymcard did not write reaches the terminal shown, never obeyed", .serialized)
struct TerminalSafetyTests {
    @Test("a card label with escape sequences and a line break: `card` shows it escaped; --json keeps it")
    func cardLabel() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let stored = try await gymcard.run(["set", "905123456", "--label", evilLabel, "--no-passphrase"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let card = try await gymcard.run(["card"])
        #expect(card.status == 0)
        let lines = card.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("Label:   " + evilLabelShown), "\(lines)")
        #expect(lines.count == 8, "one line per field and the final newline: \(lines)")
        #expect(steeringBytes(card.stdoutText).isEmpty)

        let json = try await gymcard.run(["card", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["label"] as? String == evilLabel, "JSON stays faithful")
        #expect(steeringBytes(json.stdoutText).isEmpty, "and escapes what it holds")
    }

    @Test("a file name with escape sequences in an error: one line, escaped")
    func fileNameInError() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run([
            "scan", home.path + "/photo\u{1B}]0;pwned\u{07}\n.jpg",
        ])
        #expect(result.status == 66)
        #expect(result.stderrLines.count == 1, "\(result.stderrLines)")
        #expect(result.stderr.contains("/photo\\e]0;pwned\\a\\n.jpg"), "\(result.stderr)")
        #expect(steeringBytes(result.stderr).isEmpty)
    }

    @Test("event titles, locations and hosts from an iCalendar feed: shown escaped, byte for byte")
    func eventsFromCalendar() async throws {
        let calendar = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//test//EN", "BEGIN:VEVENT", "UID:1@test",
            "DTSTART:20261121T210000Z", "DTEND:20261121T220000Z",
            "SUMMARY:Yoga\u{1B}[2J\u{1B}]0;pwned\u{07}\\nNext line\u{9B}31m",
            "LOCATION:Room\u{1B}[31m 12\u{202E}A", "ORGANIZER;CN=\"Host\u{08}\u{08}X\":mailto:x@example.org",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        let server = try await FeedServer(LocalServer.Response(contentType: "text/calendar", calendar))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(
            home: home.path,
            extra: [
                "GYMCARD_EVENTS_URL": server.server.url("/events.ics").absoluteString,
                "GYMCARD_TEST_NOW": nowText, "TZ": "America/New_York",
            ]
        ).run(["events", "--timeout", "60"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdoutText == """
                Sat, Nov 21
                  Today at 4:00 PM  Yoga\\e[2J\\e]0;pwned\\a\\nNext line\\u{009B}31m (until 5:00 PM)
                                    Room\\e[31m 12\\u{202E}A · Host\\b\\bX

                """)
        // --json: the same text, faithful, with C1 and bidirectional controls escaped the JSON way.
        let json = try await GymcardProcess(
            home: home.path,
            extra: [
                "GYMCARD_EVENTS_URL": server.server.url("/events.ics").absoluteString,
                "GYMCARD_TEST_NOW": nowText, "TZ": "America/New_York",
            ]
        ).run(["events", "--timeout", "60", "--json"])
        #expect(steeringBytes(json.stdoutText).isEmpty, "\(json.stdoutText)")
        let events = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(events.first?["title"] as? String == "Yoga\u{1B}[2J\u{1B}]0;pwned\u{07}\nNext line\u{9B}31m")
        #expect(events.first?["location"] as? String == "Room\u{1B}[31m 12\u{202E}A")
    }

    @Test("a facility name from the occupancy page: `facilities --discover` shows it escaped")
    func facilityNameFromPage() async throws {
        let page = OccupancyFragments.fullPage([
            ("11111111-2222-3333-4444-555555555555", "Evil\u{1B}]0;pwned\u{07}\u{1B}[31m Hall", 100, 5)
        ])
        let server = try await LocalServer { _ in LocalServer.Response(page) }
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        try Data("{\"occupancy\": {\"page\": \"\(server.url("/facilityoccupancy"))\"}}".utf8)
            .write(to: URL(fileURLWithPath: home.path + "/config/gymcard/config.json"))
        let result = try await GymcardProcess(home: home.path).run([
            "facilities", "--discover", "--timeout", "60",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdoutText == """
                ID                                    NAME                         CAPACITY  CONFIGURED AS
                11111111-2222-3333-4444-555555555555  Evil\\e]0;pwned\\a\\e[31m Hall  100

                """)
        #expect(steeringBytes(result.stderr).isEmpty)
    }

    @Test("facility names from the config file: the occupancy text view and the tmux line show them escaped")
    func facilityNameInOccupancy() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        let config = """
            {"occupancy": {"facilities": [{"key": "wall", "name": "Wall\\u001b[2J\\nHall", \
            "shortName": "W\\u001b]0;t\\u0007#[reverse]", "id": "\(wallID)", "capacity": 8}]}}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: home.path + "/config/gymcard/config.json"))
        let text = try await fake.gymcard(home).run(["occupancy", "--timeout", "60", "--no-color"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutText == "Wall\\e[2J\\nHall  ████░░░░     4 / 8      50%     4 left\n")
        let tmux = try await fake.gymcard(home).run(["occupancy", "--timeout", "60", "--format", "tmux"])
        #expect(tmux.status == 0, "\(tmux.stderr)")
        // tmux styles `#[…]` in a status command's output and shows `##` as `#`.
        #expect(tmux.stdoutText == "W\\e]0;t\\a##[reverse] 4/8\n")
        let waybar = try await fake.gymcard(home).run(["occupancy", "--timeout", "60", "--format", "waybar"])
        let module = try #require(try JSONSerialization.jsonObject(with: waybar.stdout) as? [String: Any])
        #expect(
            module["text"] as? String == "W\u{1B}]0;t\u{07}#[reverse] 4/8", "waybar's JSON stays faithful")
    }
}

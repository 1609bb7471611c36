import Foundation
import TestSupport
import Testing

/// Tuesday, Nov 24 2026, 5:10 PM in New York: the demo gym is open and filling up for the evening.
private let tuesdayEvening = "2026-11-24T22:10:00Z"

/// The first line of every demo's text.
private let banner = "DEMO: made-up readings and opening hours shaped like a campus gym, not yours"

/// A gymcard whose network is nowhere (any fetch would fail) at the demo's test time.
private func demoGymcard(_ home: TemporaryDirectory) -> GymcardProcess {
    GymcardProcess(
        home: home.path,
        extra: [
            "GYMCARD_TEST_NOW": tuesdayEvening, "GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:1/",
            "GYMCARD_HOURS_URL": "http://127.0.0.1:1/",
        ])
}

@Suite("--demo of trends, best, hours and wait: made-up history, no network, nothing written")
struct DemoCommandTests {
    @Test("trends --demo draws weeks of a made-up gym: quiet mornings, busy evenings, closed nights")
    func trends() async throws {
        let home = try TemporaryDirectory()
        let result = try await demoGymcard(home).run(["trends", "--demo", "mccomas"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 12, "\(result.stdoutText)")
        #expect(lines[0] == banner)
        #expect(lines[1].hasPrefix("McComas Hall · usual occupancy by half hour · last 8 weeks ("))
        // Tuesday's row: closed at 3 AM, quiet at 8 AM, busy at 7 PM, marked now at 5 PM.
        let tuesday = Array(try #require(lines.first { $0.hasPrefix("Tue") }))
        #expect(tuesday[5 + 6] == "×")
        #expect(tuesday[5 + 16] == "░")
        #expect(["▓", "█"].contains(tuesday[5 + 38]), "\(String(tuesday))")
        #expect(tuesday[5 + 34] == "◆")
        #expect(lines[11].hasPrefix("now ") && lines[11].contains("% at this time"), "\(lines[11])")
        #expect(try home.contents() == [], "nothing written")
        let json = try await demoGymcard(home).run(["trends", "--demo", "--json"])
        #expect(json.status == 64)
        #expect(json.stderr.contains("--demo draws text; leave out --json and --png"))
    }

    @Test("best --demo suggests the quiet late evening within the demo hours")
    func best() async throws {
        let home = try TemporaryDirectory()
        let result = try await demoGymcard(home).run([
            "best", "--demo", "mccomas", "--within", "6h", "--for", "60m",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(result.stdoutText)")
        #expect(lines[0] == banner)
        #expect(lines[1].hasPrefix("McComas Hall: the quietest 60 min in the next 6 h"))
        #expect(lines[2].hasPrefix("  Today at 10:00 PM – 11:00 PM  usually "), "\(lines[2])")
        #expect(try home.contents() == [], "nothing written")
    }

    @Test("hours --demo shows a campus recreation centre's week, its source demo in JSON")
    func hours() async throws {
        let home = try TemporaryDirectory()
        let result = try await demoGymcard(home).run(["hours", "--demo", "--days", "5"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(lines[0] == banner)
        #expect(lines[1] == "War Memorial Hall · open until 11:00 PM")
        #expect(lines[2] == "  Tue, Nov 24  6:00 AM – 11:00 PM  ◂ today")
        #expect(lines[6] == "  Sat, Nov 28  8:00 AM – 9:00 PM")
        #expect(result.stdoutText.contains("Bouldering Wall · open until 10:00 PM"))
        let json = try await demoGymcard(home).run(["hours", "--demo", "--json", "mccomas"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let facilities = try #require(document["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["source"] as? String } == ["demo"])
        #expect(try home.contents() == [], "nothing written")
    }

    @Test("wait --demo runs the wait on a simulated evening and ends by itself: met, closed, timed out")
    func wait() async throws {
        let home = try TemporaryDirectory()
        let met = try await demoGymcard(home).run([
            "wait", "--demo", "--below", "40%", "--for", "10m", "--facility", "mccomas",
        ])
        #expect(met.status == 0, "\(met.stderr)")
        #expect(met.stderr.isEmpty, "piped: no status line")
        let line = met.stdoutText.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("DEMO, a simulated Tuesday from 6:30 PM to "), "\(line)")
        #expect(line.contains(": McComas Hall is at ") && line.hasSuffix(", below 40% for 10 min"), "\(line)")
        let never = try await demoGymcard(home).run(["wait", "--demo", "--below", "1%"])
        #expect(never.status == 3, "the demo day ends with the gym closing: \(never.stderr)")
        #expect(never.stderr.contains("to 11:00 PM: War Memorial Hall is closed"), "\(never.stderr)")
        let timeout = try await demoGymcard(home).run([
            "wait", "--demo", "--below", "40%", "--timeout", "30m",
        ])
        #expect(timeout.status == 124)
        #expect(timeout.stderr.contains("from 6:00 PM to 6:30 PM: War Memorial Hall did not stay below 40%"))
        #expect(try home.contents() == [], "nothing written")
        let notify = try await demoGymcard(home).run(["wait", "--demo", "--below", "40%", "--notify"])
        #expect(notify.status == 64)
    }

    @Test(
        "wait --demo on a terminal: the status line moves with the simulated clock and keeps the next check",
        .enabled(if: TmuxSession.isAvailable))
    func waitStatusLine() async throws {
        let home = try TemporaryDirectory()
        let record = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let command = demoGymcard(home).shellCommand(
            "wait --demo --below 30% --for 20m --facility mccomas; echo status=$?")
        // Everything the pane is sent is recorded (pipe-pane) before the command starts, so no status line
        // drawn goes unseen however fast the simulated evening passes on this machine.
        try await tmux.start(
            columns: 80, rows: 10,
            command: "while [ ! -e \(record.path)/go ]; do sleep 0.1; done; "
                + "export GYMCARD_TEST_NOW=\(tuesdayEvening) GYMCARD_OCCUPANCY_URL=http://127.0.0.1:1/; "
                + command)
        try await tmux.tmux(["pipe-pane", "-t", tmux.name, "-o", "cat >> \(record.path)/pane"])
        #expect(FileManager.default.createFile(atPath: record.path + "/go", contents: Data()))
        try await tmux.waitFor("status=0")
        let end = try await tmux.screen().joined(separator: "\n")
        #expect(end.contains(": McComas Hall is at "), "\(end)")
        let sent = try String(contentsOfFile: record.path + "/pane", encoding: .utf8)
        // Each redraw is "\r ESC[K" and the line: the status lines drawn on the way.
        let drawn = sent.components(separatedBy: "\r\u{1B}[K").map {
            $0.components(separatedBy: CharacterSet.newlines)[0]
        }
        let status = try #require(drawn.first { $0.hasPrefix("DEMO 7:") }, "\(drawn.suffix(5))")
        #expect(status.contains("McComas Hall "), "\(status)")
        #expect(status.range(of: #"next check in \d:\d\d$"#, options: .regularExpression) != nil, "\(status)")
        #expect(status.count < 80)
    }
}

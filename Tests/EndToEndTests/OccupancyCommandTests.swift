import Foundation
import TestServer
import TestSupport
import Testing

let warMemorialID = "55069633-b56e-43b7-a68a-64d79364988d"
let mccomasID = "232d714e-5b3e-4b0d-9936-e6a738150ec4"
let wallID = "da838218-ae53-4c6f-b744-2213299033fc"

/// A local RecSports: the occupancy endpoint and the hours service, whose answers the test switches.
/// Occupancy: values per facility ID (or a queue of values, one per request, the last repeated), or
/// failure. Hours: a JSON answer per date (default: no units listed, so hours stay unknown), or failure.
final class FakeRecSports: Sendable {
    let values = Locked<[String: Int]>([
        warMemorialID: 165, mccomasID: 230, wallID: 4,
    ])
    let queued = Locked<[String: [Int]]>([:])
    let failing = Locked<Set<String>>([])
    let requests = Locked<[String: Int]>([:])
    let hours = Locked<[String: String]>([:])
    let hoursFailing = Locked(false)
    let server: LocalServer

    init() async throws {
        let values = values
        let queued = queued
        let failing = failing
        let requests = requests
        let hours = hours
        let hoursFailing = hoursFailing
        server = try await LocalServer { request in
            if let range = request.path.range(of: "/Date/") {
                if hoursFailing.withLock({ $0 }) { return LocalServer.Response(status: 503, "down") }
                let date = String(request.path[range.upperBound...])
                return LocalServer.Response(
                    contentType: "application/json", hours.withLock { $0[date] ?? $0["*"] ?? "[]" })
            }
            if request.method == "GET" {
                return LocalServer.Response(
                    OccupancyFragments.fullPage([
                        (warMemorialID, "War Memorial Hall", 1200, 100),
                        ("0b0b0b0b-1111-2222-3333-444444444444", "McComas Hall", 600, 50),
                        (wallID, "Bouldering Wall", 8, 2),
                    ]))
            }
            let id = request.formFields["facilityId"] ?? ""
            requests.withLock { $0[id, default: 0] += 1 }
            if failing.withLock({ $0.contains(id) }) { return LocalServer.Response(status: 503, "down") }
            let next = queued.withLock { queue -> Int? in
                guard let first = queue[id]?.first else { return nil }
                if queue[id]?.count ?? 0 > 1 { queue[id]?.removeFirst() }
                return first
            }
            guard let value = next ?? values.withLock({ $0[id] }) else {
                return LocalServer.Response(status: 404, "no")
            }
            let capacity = id == warMemorialID ? 1200 : id == mccomasID ? 600 : 8
            return LocalServer.Response(
                OccupancyFragments.fragment(
                    id: id, name: "x", occupancy: "\(value)", remaining: "\(capacity - value)",
                    maxOccupancy: "\(capacity)"))
        }
    }

    /// Every day: McComas 6:00–23:00, War Memorial 6:00–midnight (unit IDs as VT's service gives them).
    static let regularHours = """
        [{"id": "1", "name": "McComas Hall", "hours": [{"start": "2026-01-01T00:00:00", "end": "2026-12-31T00:00:00", \
        "open_time": "06:00:00", "close_time": "23:00:00", "title": "Regular Hours", "label": "Regular Hours"}]},
         {"id": "2", "name": "War Memorial Hall", "hours": [{"start": "2026-01-01T00:00:00", "end": "2026-12-31T00:00:00", \
        "open_time": "06:00:00", "close_time": "00:00:00", "title": "Regular Hours", "label": "Regular Hours"}]}]
        """

    func gymcard(_ home: TemporaryDirectory, now: String? = nil) -> GymcardProcess {
        var extra = [
            "GYMCARD_OCCUPANCY_URL": server.url("/FacilityOccupancy/GetFacilityData").absoluteString,
            "GYMCARD_HOURS_URL": server.url("/rshours/Api/NonRestricted/UnitsOpenOnDay").absoluteString,
        ]
        if let now { extra["GYMCARD_TEST_NOW"] = now }
        return GymcardProcess(home: home.path, extra: extra)
    }
}

@Suite("gymcard occupancy, end to end")
struct OccupancyCommandTests {
    @Test("text: one line per facility in the app's order, no colour when piped, exit 0")
    func text() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await fake.gymcard(home).run(["occupancy"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "War Memorial Hall  ██░░░░░░░░░░░░   165 / 1.2k   13%  1.0k left",
                "McComas Hall       █████░░░░░░░░░   230 / 600    38%   370 left",
                "Bouldering Wall    ████░░░░           4 / 8      50%     4 left",
            ])
    }

    @Test("--json follows the documented schema")
    func json() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await fake.gymcard(home).run(["occupancy", "--json"])
        #expect(result.status == 0)
        let document = try #require(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(document["observedAt"] is String)
        let facilities = try #require(document["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["key"] as? String } == ["war-memorial", "mccomas", "bouldering-wall"])
        #expect(facilities.map { $0["occupancy"] as? Int } == [165, 230, 4])
        #expect(facilities.map { $0["remaining"] as? Int } == [1035, 370, 4])
        #expect(facilities.map { $0["capacity"] as? Int } == [1200, 600, 8])
        #expect(facilities.map { $0["percent"] as? Int } == [13, 38, 50])
        #expect(facilities.map { $0["status"] as? String } == ["ok", "ok", "ok"])
        #expect(facilities.allSatisfy { $0["observedAt"] is String && $0["name"] is String })
    }

    @Test("--format waybar and --format tmux")
    func statusBars() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let waybar = try await fake.gymcard(home).run(["occupancy", "--format", "waybar"])
        #expect(waybar.status == 0)
        let module = try #require(JSONSerialization.jsonObject(with: waybar.stdout) as? [String: Any])
        #expect(module["text"] as? String == "WM 13% · McC 38% · Wall 4/8")
        #expect(module["class"] as? [String] == ["medium"])
        #expect(module["percentage"] as? Int == 50)
        let tmux = try await fake.gymcard(home).run(["occupancy", "--format", "tmux"])
        #expect(tmux.stdoutText == "WM 13% McC 38% Wall 4/8\n")
    }

    @Test("a failing facility shows its last value stale (exit 75); --cached answers without the network")
    func staleAndCached() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        #expect(try await gymcard.run(["occupancy"]).status == 0)
        fake.failing.withLock { $0 = [mccomasID] }
        // A generous timeout: the 503 must be seen as a 503, even when the in-process server waits for a
        // thread on a loaded 2-core machine. Ages are "just now", seconds or, on a loaded machine, minutes.
        let partial = try await gymcard.run(["occupancy", "--timeout", "20"])
        #expect(partial.status == 75)
        let age = #/(just now|\d+ s ago|\d+ min ago)/#
        #expect(
            partial.stderr.contains(
                #/McComas Hall \(showing its value from (just now|\d+ s ago|\d+ min ago)\): 127\.0\.0\.1 has a problem of its own \(HTTP 503\)/#
            ), "\(partial.stderr)")
        #expect(
            partial.stdoutText.split(separator: "\n")[1].contains(
                #/(not refreshed|stale) \(read (just now|\d+ s ago|\d+ min ago)\)$/#))
        // The network goes away entirely: --cached still answers from the state file.
        await fake.server.stop()
        let cached = try await gymcard.run(["occupancy", "--cached", "--format", "tmux"])
        #expect(cached.status == 0)
        #expect(cached.stdoutText == "WM 13% McC 38% Wall 4/8\n")
        let offline = try await gymcard.run(["occupancy", "--json", "--timeout", "1"])
        #expect(offline.status == 75)
        let document = try #require(JSONSerialization.jsonObject(with: offline.stdout) as? [String: Any])
        let statuses = (document["facilities"] as? [[String: Any]])?.map { $0["status"] as? String }
        #expect(statuses == ["stale", "stale", "stale"])
        #expect(offline.stderrLines.count == 1)
        let line = offline.stderrLines.first ?? ""
        #expect(line.hasPrefix("gymcard: War Memorial Hall (showing its value from "))
        #expect(line.matches(of: age).count == 3, "\(line)")
        #expect(
            line.hasSuffix(
                "Bouldering Wall (showing its value from \(line.matches(of: age).last.map { String($0.output.0) } ?? "")): 127.0.0.1 refused the connection; the service may be down, try again later"
            ))
    }

    @Test("nothing fetched and nothing stored: unavailable, exit 69, one clear message")
    func nothing() async throws {
        let closed = try LocalServer.ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(
            home: home.path, extra: ["GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:\(port)/x"])
        let result = try await gymcard.run(["occupancy"])
        #expect(result.status == 69)
        #expect(result.stdoutText.split(separator: "\n").allSatisfy { $0.hasSuffix("unavailable") })
        #expect(result.stderrLines.last?.hasPrefix("gymcard: no occupancy data") == true)
        let cached = try await gymcard.run(["occupancy", "--cached"])
        #expect(cached.status == 69)
    }

    @Test("status-bar formats exit 0 whenever they printed their line; the state is in class and text")
    func statusBarsExitZero() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        // Nothing stored yet: waybar must still get its line (a non-zero exit hides the module).
        let empty = try await gymcard.run(["occupancy", "--cached", "--format", "waybar"])
        #expect(empty.status == 0, "\(empty.stderr)")
        let module = try #require(JSONSerialization.jsonObject(with: empty.stdout) as? [String: Any])
        #expect(module["class"] as? [String] == ["unavailable"])
        let tmux = try await gymcard.run(["occupancy", "--cached", "--format", "tmux"])
        #expect(tmux.status == 0)
        #expect(tmux.stdoutText == "WM -- McC -- Wall --\n")
        #expect(try await gymcard.run(["occupancy", "--cached"]).status == 69, "text keeps its codes")
        // Partly stale: class carries "stale", the exit is still 0.
        #expect(try await gymcard.run(["occupancy"]).status == 0)
        fake.failing.withLock { $0 = [mccomasID] }
        let stale = try await gymcard.run(["occupancy", "--format", "waybar", "--timeout", "2"])
        #expect(stale.status == 0, "\(stale.stderr)")
        let staleModule = try #require(JSONSerialization.jsonObject(with: stale.stdout) as? [String: Any])
        #expect((staleModule["class"] as? [String])?.contains("stale") == true)
        let staleTmux = try await gymcard.run(["occupancy", "--format", "tmux", "--timeout", "2"])
        #expect(staleTmux.status == 0)
        #expect(staleTmux.stdoutText.contains("McC 38%*"))
        #expect(try await gymcard.run(["occupancy", "--json", "--timeout", "2"]).status == 75)
    }

    @Test("--watch piped prints JSON lines and ends cleanly on Ctrl-C")
    func watch() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await fake.gymcard(home).runInterrupted(["occupancy", "--watch"])
        #expect(result.status == 0)
        // One line per refresh: Ctrl-C follows the first, though on a loaded machine a second may come first.
        let lines = result.stdoutText.split(separator: "\n")
        try #require(!lines.isEmpty)
        for line in lines {
            let document = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((document["facilities"] as? [Any])?.count == 3)
        }
    }

    @Test("--watch on a terminal redraws in place, in colour, and Ctrl-C shows the cursor again")
    func watchOnTerminal() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let script = """
            import os, pexpect, sys, json
            env = dict(json.loads(sys.argv[2]), TERM="xterm-256color")
            child = pexpect.spawn(sys.argv[1], ["occupancy", "--watch"], env=env, timeout=20, dimensions=(24, 80))
            child.expect("Ctrl-C to quit")
            first = child.before.decode()
            child.sendintr()
            child.expect(pexpect.EOF)
            child.close()
            print(json.dumps({"first": first, "rest": child.before.decode(), "status": child.exitstatus}))
            """
        let environment = String(
            decoding: try JSONSerialization.data(withJSONObject: fake.gymcard(home).environment),
            as: UTF8.self)
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, environment])
        #expect(status == 0, "\(error)")
        let result = try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
        let first = try #require(result["first"] as? String)
        #expect(first.hasPrefix("\u{1B}[?25l"))
        #expect(first.contains("\u{1B}[38;5;35m█"))
        #expect(first.contains("McComas Hall"))
        #expect((result["rest"] as? String)?.contains("\u{1B}[?25h") == true)
        #expect(result["status"] as? Int == 0)
    }

    @Test("--demo needs no network and says DEMO")
    func demo() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(
            home: home.path, extra: ["GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:1/"]
        )
        .run(["occupancy", "--demo"])
        #expect(result.status == 0)
        #expect(result.stdoutText.hasPrefix("DEMO"))
        #expect(result.stdoutText.contains("McComas Hall       █████░░░░░░░░░   230 / 600    38%   370 left"))
    }

    @Test(
        "--demo --watch is a preview: the sample values move each refresh; nothing fetched, stored or recorded"
    )
    func demoWatch() async throws {
        let home = try TemporaryDirectory()
        var process = GymcardProcess(home: home.path, extra: ["GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:1/"])
        process.environment["GYMCARD_TEST_TIME_SCALE"] = "60"
        let (result, signalled) = try await process.runSignalled(
            ["occupancy", "--demo", "--watch", "--format", "tmux"], signal: SIGINT
        ) { output in output.split(separator: UInt8(ascii: "\n")).count >= 3 }
        #expect(signalled)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "DEMO WM 58% McC 38% Wall 4/8", "DEMO WM 60% McC 40% Wall 4/8",
                "DEMO WM 62% McC 42% Wall 4/8",
            ])
        #expect(!FileManager.default.fileExists(atPath: home.path + "/state/gymcard"), "no state, no history")
    }

    @Test("facilities --discover lists the page's cards and names a configured ID that is gone")
    func discover() async throws {
        let fake = try await FakeRecSports()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        try Data("{\"occupancy\": {\"page\": \"\(fake.server.url("/facilityoccupancy"))\"}}".utf8)
            .write(to: URL(fileURLWithPath: home.path + "/config/gymcard/config.json"))
        let result = try await fake.gymcard(home).run(["facilities", "--discover"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)
        #expect(
            lines[1].hasPrefix(warMemorialID + "  War Memorial Hall  1200")
                && lines[1].hasSuffix("war-memorial"))
        #expect(lines[2].hasPrefix("0b0b0b0b-1111-2222-3333-444444444444  McComas Hall"))
        #expect(result.stderr.contains("mccomas (\(mccomasID)) is not on the page"))
    }

    @Test("an invalid config file: exit 78 naming the file and the key")
    func badConfig() async throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        try Data(
            "{\"occupancy\": {\"facilities\": [{\"key\": \"x\", \"name\": \"X\", \"id\": \"1\", \"capacity\": \"many\"}]}}"
                .utf8
        )
        .write(to: URL(fileURLWithPath: home.path + "/config/gymcard/config.json"))
        let result = try await GymcardProcess(home: home.path).run(["occupancy", "--cached"])
        #expect(result.status == 78)
        #expect(
            result.stderrLines == [
                "gymcard: \(home.path)/config/gymcard/config.json: occupancy.facilities[0].capacity has the wrong type; fix or remove it"
            ])
    }
}

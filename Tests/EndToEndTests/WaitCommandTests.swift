import Foundation
import History
import TestServer
import TestSupport
import Testing

/// `gymcard wait` against the local RecSports. Time runs 600 times as fast (the test-only
/// GYMCARD_TEST_TIME_SCALE), so the default 2-minute interval is 0.2 s and a 10-minute hold 1 s.
@Suite("gymcard wait, end to end")
struct WaitCommandTests {
    func fake() async throws -> FakeRecSports {
        let fake = try await FakeRecSports()
        fake.hours.withLock { $0["*"] = FakeRecSports.regularHours }
        return fake
    }

    func gymcard(_ fake: FakeRecSports, _ home: TemporaryDirectory, now: String = mondayNoon)
        -> GymcardProcess
    {
        var process = fake.gymcard(home, now: now)
        process.environment["GYMCARD_TEST_TIME_SCALE"] = "600"
        return process
    }

    func polls(_ fake: FakeRecSports) -> Int { fake.requests.withLock { $0[mccomasID] ?? 0 } }

    @Test("already below: one poll, one line, exit 0; piped, nothing else; the poll is in the history")
    func metAtOnce() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let result = try await gymcard(fake, home).run(["wait", "--below", "40%", "--facility", "mccomas"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "McComas Hall is at 38% (230/600), below 40%\n")
        #expect(result.stderr.isEmpty)
        #expect(polls(fake) == 1)
        let store = try #require(
            try HistoryStore.openIfPresent(path: home.path + "/state/gymcard/history.sqlite3"))
        let readings = try store.readings(from: .distantPast, to: .distantFuture)
        #expect(readings.map(\.facility) == ["mccomas"])
        #expect(readings.map(\.occupancy) == [230])
    }

    @Test("--for 10m: met only once it has stayed below for ten minutes of polls")
    func metAfterHold() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.queued.withLock { $0[mccomasID] = [300, 150, 150, 150, 150, 150, 150] }
        let home = try TemporaryDirectory()
        let result = try await gymcard(fake, home).run([
            "wait", "--below", "30%", "--facility", "mccomas", "--for", "10m",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "McComas Hall is at 25% (150/600), below 30% for 10 min\n")
        #expect(polls(fake) == 7)
    }

    @Test("a dip that ends too early does not count: the hold starts again after it")
    func dips() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.queued.withLock { $0[mccomasID] = [150, 150, 200, 150, 150, 150, 150] }
        let home = try TemporaryDirectory()
        let result = try await gymcard(fake, home).run([
            "wait", "--below", "30%", "--facility", "mccomas", "--for", "6m",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "McComas Hall is at 25% (150/600), below 30% for 6 min\n")
        #expect(polls(fake) == 7)
    }

    @Test("people: --below 120 counts heads")
    func people() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.queued.withLock { $0[mccomasID] = [130, 119] }
        let home = try TemporaryDirectory()
        let result = try await gymcard(fake, home).run([
            "wait", "--below", "120", "--facility", "McComas Hall",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "McComas Hall is at 19% (119/600), below 120 people\n")
    }

    @Test("--timeout passes: exit 124, one line that says the value now, nothing on stdout")
    func timeout() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.values.withLock { $0[mccomasID] = 500 }
        let home = try TemporaryDirectory()
        let result = try await gymcard(fake, home).run([
            "wait", "--below", "30%", "--facility", "mccomas", "--timeout", "10m",
        ])
        #expect(result.status == 124)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "gymcard: McComas Hall did not stay below 30% within 10m (it is at 83%)\n")
        #expect((5...7).contains(polls(fake)), "\(polls(fake)) polls in 10 min at 2 min")
    }

    @Test("closed now: exit 3 at once, saying when it opens")
    func closed() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        // 4:00 in New York.
        let result = try await gymcard(fake, home, now: "2026-11-23T09:00:00Z").run([
            "wait", "--below", "30%", "--facility", "mccomas",
        ])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "gymcard: McComas Hall is closed; it opens 6:00 AM\n")
    }

    @Test("closes before the hold could end: exit 3, saying when it opens again")
    func closesFirst() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.values.withLock { $0[mccomasID] = 100 }
        let home = try TemporaryDirectory()
        // 22:50 in New York, closing at 23:00.
        let result = try await gymcard(fake, home, now: "2026-11-24T03:50:00Z").run([
            "wait", "--below", "30%", "--facility", "mccomas", "--for", "30m",
        ])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "gymcard: McComas Hall closes at 11:00 PM, before it could stay below 30% for 30 min; it opens again tomorrow at 6:00 AM\n"
        )
    }

    @Test("the source unreachable until the timeout: the occupancy code (69) and why; polls back off")
    func unreachable() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.failing.withLock { $0 = [mccomasID] }
        let home = try TemporaryDirectory()
        let result = try await gymcard(fake, home).run([
            "wait", "--below", "30%", "--facility", "mccomas", "--timeout", "20m",
        ])
        #expect(result.status == 69)
        #expect(
            result.stderr.hasPrefix("gymcard: McComas Hall could not be read before the timeout: "),
            "\(result.stderr)")
        #expect(result.stderr.contains("HTTP 503"), "\(result.stderr)")
        // Polls at 0, 2, 6 and 14 minutes (the interval doubling) and a last one at the timeout, not every
        // 2 minutes (11 polls); each is recorded in the history as a failed attempt (a poll's own retries
        // are one attempt).
        let store = try #require(
            try HistoryStore.openIfPresent(path: home.path + "/state/gymcard/history.sqlite3"))
        let attempts = try store.attempts(from: .distantPast, to: .distantFuture)
        #expect(attempts.count == 5, "\(attempts)")
        #expect(attempts.allSatisfy { $0.status == .failed })
    }

    @Test(
        "on a terminal: one status line redrawn in place (value, threshold, time held, next check), cleared at the end"
    )
    func statusLine() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.queued.withLock { $0[mccomasID] = [500, 150, 150, 150, 150] }
        let home = try TemporaryDirectory()
        var process = fake.gymcard(home, now: mondayNoon)
        process.environment["GYMCARD_TEST_TIME_SCALE"] = "60"
        let script = """
            import pexpect, sys, json
            env = dict(json.loads(sys.argv[2]), TERM="xterm-256color")
            child = pexpect.spawn(sys.argv[1], ["wait", "--below", "30%", "--facility", "mccomas", "--for", "4m"],
                                  env=env, timeout=30, dimensions=(24, 200))
            child.expect(pexpect.EOF)
            child.close()
            print(json.dumps({"output": child.before.decode(), "status": child.exitstatus}))
            """
        let environment = String(
            decoding: try JSONSerialization.data(withJSONObject: process.environment), as: UTF8.self)
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, environment])
        #expect(status == 0, "\(error)")
        let result = try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
        let text = try #require(result["output"] as? String)
        #expect(result["status"] as? Int == 0)
        #expect(
            text.contains(
                "\r\u{1B}[KMcComas Hall 83% (500/600) · waiting for below 30% · held 0 of 4 min · next check in 2:00"
            ),
            "\(text)")
        #expect(
            text.contains(
                "\r\u{1B}[KMcComas Hall 83% (500/600) · waiting for below 30% · held 0 of 4 min · next check in 1:59"
            ))
        #expect(text.contains("· held 2 of 4 min · next check in"))
        #expect(
            text.hasSuffix("\r\u{1B}[KMcComas Hall is at 25% (150/600), below 30% for 4 min\r\n"),
            "\(text.suffix(200))")
    }

    @Test("Ctrl-C: exit 130, nothing printed")
    func interrupted() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        fake.values.withLock { $0[mccomasID] = 500 }
        let home = try TemporaryDirectory()
        var process = fake.gymcard(home, now: mondayNoon)
        process.environment["GYMCARD_TEST_TIME_SCALE"] = "60"
        let (result, signalled) = try await process.runSignalled(
            ["wait", "--below", "30%", "--facility", "mccomas"], signal: SIGINT
        ) { _ in fake.requests.withLock { $0[mccomasID] ?? 0 } >= 1 }
        #expect(signalled)
        #expect(result.status == 130)
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "--notify: notify-send gets the title and message, the ntfy endpoint a POST with Title and Priority")
    func notify() async throws {
        let fake = try await fake()
        defer { Task { await fake.server.stop() } }
        let pushes = Locked<[LocalServer.Request]>([])
        let ntfy = try await LocalServer { request in
            pushes.withLock { $0.append(request) }
            return LocalServer.Response(contentType: "application/json", #"{"id": "x"}"#)
        }
        defer { Task { await ntfy.stop() } }
        let home = try TemporaryDirectory()
        let bin = home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let stub = bin + "/notify-send"
        try ExecutableScript.write(
            """
            #!/bin/sh
            for argument in "$@"; do printf '%s\\n' "$argument"; done > "\(home.path)/notify-send.args"
            """, to: stub)
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        try #"{"notify": {"ntfy": "\#(ntfy.url("/gym-topic").absoluteString)", "priority": 5}}"#
            .write(toFile: home.path + "/config/gymcard/config.json", atomically: true, encoding: .utf8)

        var process = gymcard(fake, home)
        process.environment["PATH"] = bin + ":/usr/bin:/bin"
        let result = try await process.run(["wait", "--below", "40%", "--facility", "mccomas", "--notify"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let arguments = try String(contentsOfFile: home.path + "/notify-send.args", encoding: .utf8)
        #expect(
            arguments.split(separator: "\n").map(String.init) == [
                "-a", "gymcard", "-u", "normal", "McComas Hall is quiet",
                "McComas Hall is at 38% (230/600), below 40%",
            ])
        let push = try #require(pushes.withLock { $0.first })
        #expect(push.method == "POST")
        #expect(push.path == "/gym-topic")
        #expect(push.headers["title"] == "McComas Hall is quiet")
        #expect(push.headers["priority"] == "5")
        #expect(String(decoding: push.body, as: UTF8.self) == "McComas Hall is at 38% (230/600), below 40%")

        // A notification that fails is a warning; the wait still succeeds.
        try ExecutableScript.write("#!/bin/sh\necho 'cannot open display' >&2\nexit 1\n", to: stub)
        await ntfy.stop()
        let failing = try await process.run([
            "wait", "--below", "40%", "--facility", "mccomas", "--notify", "--timeout", "10m",
        ])
        #expect(failing.status == 0, "\(failing.stderr)")
        #expect(failing.stdoutText == "McComas Hall is at 38% (230/600), below 40%\n")
        #expect(
            failing.stderr.contains(
                "warning: the desktop notification failed (notify-send: cannot open display)"),
            "\(failing.stderr)")
        #expect(failing.stderr.contains("warning: the push to 127.0.0.1 failed"), "\(failing.stderr)")
    }
}

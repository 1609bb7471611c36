import Foundation
import TestSupport
import Testing

/// `gymcard show` in a real terminal over a stand-in backlight folder (`GYMCARD_TEST_BACKLIGHT`), with a
/// system bus that is not there, so that the level is written to the stand-in's files and a real logind
/// on the machine running the tests is never asked.
struct BacklightShow {
    let home: TemporaryDirectory
    let standIn: StandInBacklight
    let tmux = TmuxSession()
    /// The stand-in device and its levels.
    let device = "gymcard_test_backlight"
    let level: UInt32
    let maximum: UInt32

    /// Whether tmux is there; under CI it must be, and a test that cannot run fails instead of skipping.
    static var canRun: Bool { TmuxSession.isAvailable || ProcessInfo.processInfo.environment["CI"] == "true" }

    init(level: UInt32 = 37, maximum: UInt32 = 255) throws {
        home = try TemporaryDirectory()
        standIn = try StandInBacklight([.levels("gymcard_test_backlight", level, of: maximum)])
        self.level = level
        self.maximum = maximum
        standIn.backdate(device)
    }

    /// gymcard over the stand-in, with a system bus that is not there (`bus`: the test's own).
    func gymcard(bus: String? = nil) -> GymcardProcess {
        GymcardProcess(
            home: home.path,
            extra: [
                "GYMCARD_TEST_BACKLIGHT": standIn.path,
                "DBUS_SYSTEM_BUS_ADDRESS": bus ?? "unix:path=\(home.path)/no-bus",
            ])
    }

    /// The shell line for the pane: not a remote shell, `exports` (a test's own), `gymcard ARGUMENTS` over
    /// the stand-in (on `bus`), and its status.
    func command(_ arguments: String, exports: String = "", bus: String? = nil) -> String {
        "echo ready; unset SSH_CONNECTION SSH_CLIENT SSH_TTY; \(exports)"
            + gymcard(bus: bus).shellCommand(arguments) + "; echo status=$?"
    }

    /// Starts `show ARGUMENTS` and waits for the whole card.
    func showCard(
        _ arguments: String = "show --id 905123456 --timeout 0", exports: String = "", bus: String? = nil
    )
        async throws
    {
        try await tmux.start(columns: 100, rows: 30, command: command(arguments, exports: exports, bus: bus))
        _ = try await tmux.waitForCard(caption: "9051-23456")
    }

    /// The level in the stand-in's file now.
    var current: UInt32? { standIn.level(device) }

    /// Waits until the level is the maximum: the guardian raises it beside the first frame, not before it.
    func raised() async -> Bool { await standIn.waitForLevel(device, maximum) == maximum }

    /// Whether anything wrote the file since the test began.
    var written: Bool { standIn.modified(device) != 1_000_000_000 }

    /// The process running `gymcard show` in the pane (the pane's shell's one child).
    func gymcardProcess() async throws -> pid_t {
        let shell = try await tmux.tmux(["display-message", "-p", "-t", tmux.name, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").compactMap { pid_t($0) }.first)
    }

    /// What gymcard said in the pane, but for the notice about tmux's pass-through (said once per user).
    func said() async throws -> [String] {
        try await tmux.scrollback().split(separator: "\n").map(String.init).filter {
            $0.contains("gymcard:") && !$0.contains("allow-passthrough")
        }
    }

    /// Whether a process with this ID is still there (and not a zombie).
    static func isRunning(_ process: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8) else {
            return false
        }
        return !status.contains(") Z ")
    }
}

@Suite(
    "gymcard show at the turnstile: the backlight at full while the card shows, back on every way out",
    .serialized)
struct TurnstileBrightnessTests {
    @Test(
        "a key: at full while shown, back to the exact level before the shell's prompt; nothing said",
        .enabled(if: BacklightShow.canRun))
    func key() async throws {
        let show = try BacklightShow(level: 37, maximum: 255)
        defer { show.tmux.kill() }
        try await show.showCard()
        #expect(await show.raised())
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        try await show.tmux.waitFor("status=0")
        #expect(show.standIn.brightness(show.device) == "37\n", "back by the time gymcard has exited")
        #expect(try await show.said() == [])
    }

    @Test(
        "the timeout: raised, then back to the exact level when it closes", .enabled(if: BacklightShow.canRun)
    )
    func timeout() async throws {
        let show = try BacklightShow(level: 1200, maximum: 96000)
        defer { show.tmux.kill() }
        // Whether the card is captured before the timeout depends on the machine: the file's time and the
        // level after say that it was raised and put back, whatever the speed.
        try await show.tmux.start(
            columns: 100, rows: 30, command: show.command("show --id 905123456 --timeout 1"))
        try await show.tmux.waitFor("status=0")
        #expect(show.written, "raised")
        #expect(show.standIn.brightness(show.device) == "1200\n")
    }

    @Test("Ctrl-C (a key in the view): 130, and the level back", .enabled(if: BacklightShow.canRun))
    func controlC() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try await show.showCard()
        #expect(await show.raised())
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "C-c"])
        try await show.tmux.waitFor("status=130")
        #expect(show.current == show.level)
    }

    @Test(
        "SIGTERM, SIGHUP and SIGINT sent to gymcard: 128 + the signal, the level back before it exits",
        .enabled(if: BacklightShow.canRun), arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)])
    func signals(signal: Int32, status: Int) async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try await show.showCard()
        #expect(await show.raised())
        kill(try await show.gymcardProcess(), signal)
        try await show.tmux.waitFor("status=\(status)")
        #expect(show.current == show.level)
    }

    @Test(
        "the terminal hung up (its window closed): the level back", .enabled(if: BacklightShow.canRun))
    func hangUp() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try await show.showCard()
        #expect(await show.raised())
        let process = try await show.gymcardProcess()
        try await show.tmux.tmux(["kill-session", "-t", show.tmux.name])
        #expect(await show.standIn.waitForLevel(show.device, show.level) == show.level)
        for _ in 0..<600 where BacklightShow.isRunning(process) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(!BacklightShow.isRunning(process), "gymcard ended")
    }

    @Test(
        "the view killed where no handler runs (SIGKILL) or crashing (SIGSEGV, SIGABRT): the guardian puts the level back",
        .enabled(if: BacklightShow.canRun), arguments: [(SIGKILL, 137), (SIGSEGV, 139), (SIGABRT, 134)])
    func killed(signal: Int32, status: Int) async throws {
        let show = try BacklightShow(level: 5, maximum: 15)
        defer { show.tmux.kill() }
        // Without Swift's crash reporter, which catches SIGSEGV and SIGABRT to print a backtrace (and, for a
        // signal sent with kill rather than a fault, lets the process go on): they then end it as a crash does.
        try await show.showCard(exports: "export SWIFT_BACKTRACE=enable=no; ")
        #expect(await show.raised())
        kill(try await show.gymcardProcess(), signal)
        try await show.tmux.waitFor("status=\(status)")
        #expect(await show.standIn.waitForLevel(show.device, 5) == 5)
    }

    @Test(
        "already at the maximum: the file is never written (nothing to put back)",
        .enabled(if: BacklightShow.canRun))
    func alreadyAtMaximum() async throws {
        let show = try BacklightShow(level: 255, maximum: 255)
        defer { show.tmux.kill() }
        try await show.showCard()
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        try await show.tmux.waitFor("status=0")
        #expect(!show.written)
        #expect(show.current == 255)
    }
}

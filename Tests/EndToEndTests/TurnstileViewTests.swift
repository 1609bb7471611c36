import Codabar
import Foundation
import Imaging
import Scanner
import TestSupport
import Testing

/// A private tmux server (its own socket) with one session: a real terminal whose screen and scrollback a
/// test can read, as a person sees them.
struct TmuxSession {
    let socket = "gymcard-test-\(UInt32.random(in: 0...UInt32.max))"
    let name = "card"

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Runs a tmux command against this server. Output goes through a file: the server `new-session`
    /// forks keeps the descriptors it inherited, so a pipe would never reach its end.
    @discardableResult
    func tmux(_ arguments: [String]) async throws -> String {
        let outputPath = NSTemporaryDirectory() + "/\(socket)-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        try await runTool(
            ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments,
            standardOutput: arguments.first == "new-session" ? "/dev/null" : outputPath)
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Starts the session running `command` in bash, then keeps the pane open (for 15 minutes: a test on a
    /// loaded machine may look at the screen minutes after the command ended; kill() ends it sooner).
    func start(columns: Int, rows: Int, command: String) async throws {
        try await tmux([
            "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)",
            "bash --norc --noprofile -c '\(command); sleep 900'",
        ])
        try await tmux(["set-option", "-t", name, "-g", "history-limit", "5000"])
    }

    /// The visible screen; with `escapes`, colours as SGR codes.
    func screen(escapes: Bool = false) async throws -> [String] {
        let text = try await tmux(["capture-pane", "-t", name, "-p"] + (escapes ? ["-e", "-N"] : []))
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The scrollback and the normal screen (not the alternate screen).
    func scrollback() async throws -> String {
        try await tmux(["capture-pane", "-t", name, "-p", "-a", "-q"]) + "\n"
            + (try await tmux(["capture-pane", "-t", name, "-p", "-J", "-S", "-", "-E", "-"]))
    }

    /// Waits until the screen shows `text`.
    func waitFor(_ text: String, seconds: Double = 300) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await screen().joined(separator: "\n").contains(text) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the screen never showed \(text):\n\(try await screen().joined(separator: "\n"))")
        throw CancellationError()
    }

    /// Stops the server (blocking: it runs from `defer`).
    func kill() { try? runToolBlocking(["/usr/bin/tmux", "-L", socket, "-f", "/dev/null", "kill-server"]) }
}

/// Runs a program to its end with `posix_spawn` and `waitpid` (Foundation's Process waited minutes for a
/// tmux client whose forked server lives on), standard output to a file, the rest to /dev/null.
func runTool(_ arguments: [String], standardOutput: String = "/dev/null") async throws {
    try await OffThePool.run { try runToolBlocking(arguments, standardOutput: standardOutput) }
}

/// ``runTool`` on the calling thread.
func runToolBlocking(_ arguments: [String], standardOutput: String = "/dev/null") throws {
    _ = try ChildProcess.runBlocking(arguments, standardOutput: standardOutput)
}

/// Lines of the screen that carry the drawing, for rasterizing: from the first to the last with block
/// characters or black cells, light rows between them included (a turned barcode's spaces are rows).
func drawingLines(_ lines: [String]) -> [String] {
    let marks = ["▌", "█", "▐", "▀", "▄", "\u{1B}[48;5;16m"]
    let dark = lines.indices.filter { index in marks.contains { lines[index].contains($0) } }
    guard let first = dark.first, let last = dark.last else { return [] }
    return Array(lines[first...last])
}

extension TmuxSession {
    /// Captures the pane until the card is whole on it: the drawing (five lines or more), `caption` and
    /// the hint. A loaded machine may capture the screen between the clearing and the drawing of a
    /// redraw (seen in CI); after the hang detector's time the last capture is returned and checked.
    func waitForCard(caption: String) async throws -> PaneCapture {
        try await waitForCapture { capture in
            drawingLines(capture.escaped).count >= 5
                && capture.text.contains(caption) && capture.text.contains("any key closes")
        }
    }
}

/// What libzbar reads from the drawing on screen, off the concurrency pool (the suite's servers need it).
/// `darkTheme` paints cells without colour codes light on dark, as a dark terminal theme shows them.
func decodeScreen(_ lines: [String], darkTheme: Bool = false) async -> [String] {
    let image = rasterize(drawingLines(lines), darkTheme: darkTheme)
    return await OffThePool.glance { ZBarReader().decode(image).map(\.text) }
}

/// The columns from the first to the last dark cell of the drawing on screen (`escapes` capture).
func darkColumns(_ lines: [String]) -> ClosedRange<Int>? {
    let image = rasterize(drawingLines(lines))
    let dark = (0..<image.width).filter { x in
        (0..<image.height).contains { image.pixels[$0 * image.width + x] < 128 }
    }
    guard let first = dark.first, let last = dark.last else { return nil }
    return (first / 11)...(last / 11)
}

@Suite("gymcard show at the turnstile: the full-screen card on real terminals", .serialized)
struct TurnstileViewTests {
    func command(_ home: TemporaryDirectory, _ arguments: String) -> String {
        "echo ready; " + GymcardProcess(home: home.path).shellCommand(arguments) + "; echo status=$?"
    }

    @Test(
        "in tmux: blocks that scan, centred, the ID under them; a key closes it and the scrollback holds nothing of the card",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxKey() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(columns: 120, rows: 40, command: command(home, "show --id 905123456"))
        let capture = try await tmux.waitForCard(caption: "9051-23456")
        let screen = capture.escaped
        #expect(capture.plain.contains { $0.contains("9051-23456") })
        let drawing = drawingLines(screen)
        #expect(drawing.count >= 5)
        #expect(await decodeScreen(drawing) == ["A905123456B"])
        // Centred: as many columns left of the bars as right of them, give or take one.
        let bars = try #require(darkColumns(screen))
        #expect(abs(bars.lowerBound - (119 - bars.upperBound)) <= 1, "\(bars)")
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
        let after = try await tmux.scrollback()
        #expect(!after.contains("9051-23456"))
        #expect(!after.contains("▌") && !after.contains("█"))
        #expect(after.contains("allow-passthrough"), "why blocks, said once")
    }

    @Test(
        "in tmux: the notice about allow-passthrough is said once per user",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxNoticeOnce() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let run = command(home, "show --id 905123456 --timeout 1")
        try await tmux.start(columns: 100, rows: 30, command: run + "; " + run)
        try await tmux.waitFor("status=0")
        try await Task.sleep(for: .seconds(2.5))
        let after = try await tmux.scrollback()
        #expect(after.components(separatedBy: "status=0").count == 3, "\(after)")
        #expect(after.components(separatedBy: "allow-passthrough").count == 2, "\(after)")
    }

    @Test(
        "in tmux: the timeout closes it, Ctrl-C closes it with 130, both leave nothing behind",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxTimeoutAndInterrupt() async throws {
        let home = try TemporaryDirectory()
        let timed = TmuxSession()
        defer { timed.kill() }
        try await timed.start(
            columns: 100, rows: 30, command: command(home, "show --id 905123456 --timeout 1"))
        try await timed.waitFor("9051-23456")
        try await timed.waitFor("status=0", seconds: 10)
        #expect(!(try await timed.scrollback()).contains("9051-23456"))

        let interrupted = TmuxSession()
        defer { interrupted.kill() }
        try await interrupted.start(columns: 100, rows: 30, command: command(home, "show --id 905123456"))
        try await interrupted.waitFor("9051-23456")
        try await interrupted.tmux(["send-keys", "-t", interrupted.name, "C-c"])
        try await interrupted.waitFor("status=130")
        let after = try await interrupted.scrollback()
        #expect(!after.contains("9051-23456") && !after.contains("▌"))
        // Ctrl-C is not a usage error: nothing is said (argument-parser once called it "invalid usage").
        #expect(!after.contains("gymcard:"), "\(after)")
    }

    @Test(
        "in tmux: resizing redraws to the new width, and it still scans",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxResize() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(columns: 200, rows: 40, command: command(home, "show --id 905123456"))
        let wide = try #require(darkColumns(try await tmux.waitForCard(caption: "9051-23456").escaped)).count
        try await tmux.tmux(["resize-window", "-t", tmux.name, "-x", "90", "-y", "30"])
        // The redraw is a stream of writes: wait until the new screen is whole.
        func hintAtBottom(_ capture: PaneCapture) -> Bool {
            capture.plain.prefix(30).last?.contains("any key closes") == true
        }
        let capture = try await tmux.waitForCapture { capture in
            guard (darkColumns(capture.escaped)?.count ?? wide) < wide, hintAtBottom(capture) else {
                return false
            }
            return await decodeScreen(capture.escaped) == ["A905123456B"]
        }
        let narrow = darkColumns(capture.escaped)?.count ?? wide
        let decoded = await decodeScreen(capture.escaped)
        #expect(narrow < wide && narrow <= 90)
        #expect(decoded == ["A905123456B"])
        #expect(hintAtBottom(capture))
        try await tmux.tmux(["send-keys", "-t", tmux.name, "q"])
        try await tmux.waitFor("status=0")
    }

    @Test(
        "in tmux: the stored card's label under the ID; --inline still prints into the scrollback",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxLabelAndInline() async throws {
        let home = try TemporaryDirectory()
        let stored = try await GymcardProcess(home: home.path).run([
            "set", "905123456", "--label", "War Memorial card", "--no-passphrase",
        ])
        #expect(stored.status == 0)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(
            columns: 120, rows: 40,
            command: command(home, "show; \(GymcardProcess.executable.path) show --inline"))
        try await tmux.waitFor("War Memorial card")
        #expect(try await tmux.screen().contains { $0.contains("9051-23456") })
        try await tmux.tmux(["send-keys", "-t", tmux.name, " "])
        try await tmux.waitFor("status=0")
        let drawing = drawingLines(try await tmux.screen(escapes: true))
        #expect(await decodeScreen(drawing) == ["A905123456B"], "--inline")
    }

    @Test(
        "in tmux with NO_COLOR: the full-screen card still scans on a dark theme (black on white is the picture)",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxNoColor() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let show = GymcardProcess(home: home.path).shellCommand("show --id 905123456")
            .replacingOccurrences(of: "unset NO_COLOR; ", with: "export NO_COLOR=1; ")
        try await tmux.start(columns: 120, rows: 40, command: "echo ready; \(show); echo status=$?")
        let screen = try await tmux.waitForCard(caption: "9051-23456").escaped
        #expect(await decodeScreen(screen, darkTheme: true) == ["A905123456B"], "dark theme")
        #expect(await decodeScreen(screen, darkTheme: false) == ["A905123456B"], "light theme")
        // The text follows NO_COLOR: no bold ID, no dim hint.
        let caption = try #require(screen.first { $0.contains("9051-23456") })
        #expect(!caption.contains("\u{1B}[1m"), "\(caption)")
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }

    @Test(
        "in tmux with TERM=dumb: no alternate screen, no cursor addressing, no escape at all; the barcode plain, a warning naming --png, exit 0",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxDumbTerminal() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let folder = try TemporaryDirectory()
        let output = folder.path + "/pane"
        let show = GymcardProcess(home: home.path).shellCommand("show --id 905123456")
        // The shell waits for a line so that every byte gymcard writes is recorded by pipe-pane.
        try await tmux.start(
            columns: 120, rows: 40, command: "read -r _; export TERM=dumb; \(show); echo status=$?")
        try await tmux.tmux(["pipe-pane", "-t", tmux.name, "-o", "cat >> \(output)"])
        try await tmux.tmux(["send-keys", "-t", tmux.name, "Enter"])
        try await tmux.waitFor("status=0")
        let joined = try await tmux.tmux(["capture-pane", "-t", tmux.name, "-p", "-J"])
        #expect(joined.contains("colours are off (TERM is dumb)") && joined.contains("--png"), "\(joined)")
        // Plain blocks, on a light theme, in a font whose █ fills the cell.
        let image = rasterize(drawingLines(try await tmux.screen()), fullBlockWidth: 11)
        #expect(await OffThePool.compute { ZBarReader().decode(image).map(\.text) } == ["A905123456B"])
        // pipe-pane has written everything once the pane shows the status.
        var written = Data()
        for _ in 0..<100 {
            written = (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()
            if String(decoding: written, as: UTF8.self).contains("status=0") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(String(decoding: written, as: UTF8.self).contains("status=0"))
        #expect(!written.contains(0x1B), "\(String(decoding: written, as: UTF8.self).debugDescription)")
    }

    @Test(
        "in tmux: a label with escape sequences is shown escaped under the ID; the window title stays",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxEvilLabel() async throws {
        let home = try TemporaryDirectory()
        let stored = try await GymcardProcess(home: home.path).run([
            "set", "905123456", "--label", "evil\u{1B}[31mRED\u{1B}]2;pwned\u{07}\nx", "--no-passphrase",
        ])
        #expect(stored.status == 0)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(columns: 120, rows: 40, command: command(home, "show"))
        try await tmux.waitFor("any key closes")
        let plain = try await tmux.screen()
        #expect(plain.contains { $0.contains("evil\\e[31mRED\\e]2;pwned\\a\\nx") }, "\(plain)")
        let colours = try await tmux.screen(escapes: true)
        #expect(!colours.contains { $0.contains("\u{1B}[31m") })
        let title = try await tmux.tmux(["display-message", "-p", "-t", tmux.name, "#{pane_title}"])
        #expect(!title.contains("pwned"), "\(title)")
        #expect(await decodeScreen(colours) == ["A905123456B"])
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }
}

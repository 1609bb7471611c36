import Foundation
import Imaging
import Scanner
import TestSupport
import Testing

/// An X server without a screen (Xvfb) and xterms on it, for what a person sees on a real terminal.
///
/// Each xterm is given a font by name (`-fa`), one of ``fonts``, so that what the tests measure is gymcard
/// and not the machine's `fc-match Monospace` (DejaVu Sans Mono on one Debian, Noto Sans Mono on
/// another: cells of 9 and 11 px, windows under and over xterm's 1000 px sixel limit).
final class XtermScreen: @unchecked Sendable {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/xterm", "/usr/bin/xwd", "/usr/bin/fc-match"]

    /// The fonts the tests name, each installed by scripts/install-system-packages: DejaVu Sans Mono
    /// (fonts-dejavu-core), Noto Sans Mono (fonts-noto-mono), Liberation Mono (fonts-liberation2).
    static let fonts = ["DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono"]

    /// Whether fontconfig gives `font` itself for its name, not a stand-in.
    static func resolves(_ font: String) -> Bool {
        let output = NSTemporaryDirectory() + "/gymcard-fc-match-\(UUID().uuidString)"
        defer { unlink(output) }
        guard
            (try? ChildProcess.runBlocking(
                ["/usr/bin/fc-match", "-f", "%{family}", font], standardOutput: output)) == 0,
            let families = try? String(contentsOfFile: output, encoding: .utf8)
        else { return false }
        return families.split(separator: ",").contains { $0 == font }
    }

    static var toolsPresent: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// The tools and the fonts are all there.
    static let isAvailable = toolsPresent && fonts.allSatisfy(resolves)

    /// Under `CI=true` a missing tool or font fails the tests instead of skipping them.
    static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Fails the test, naming what is missing, when a tool or font is not there.
    static func requirePrerequisites() throws {
        for tool in tools {
            try #require(
                FileManager.default.isExecutableFile(atPath: tool),
                "\(tool) (scripts/install-system-packages)")
        }
        for font in fonts {
            try #require(resolves(font), "fc-match does not find \(font) (scripts/install-system-packages)")
        }
    }

    let display: String
    private let server: ChildProcess
    private var terminals: [ChildProcess] = []

    /// Starts the X server, `width` × `height` pixels, and waits for its socket. Xvfb picks a free display
    /// itself (`-displayfd`, under its lock files): a number picked here, when two suites started a server
    /// at once, was taken by both; one server failed, and its test's xterms ran on the other's, until that
    /// one's test ended and closed it ("Can't open display"). `-noreset`: by default the server resets when
    /// its last client leaves; an xterm opened during that reset, right after the previous window closed,
    /// is the likely reason the sixel round trip's second card once could not open the display in CI.
    static func start(width: Int = 1400, height: Int = 800) async throws -> XtermScreen {
        let server = try await ChildProcess.start(
            "/usr/bin/Xvfb",
            ["-displayfd", "1", "-noreset", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
        // On a loaded machine the display has come after more than 5 s.
        let deadline = Date().addingTimeInterval(60)
        var number = ""
        while Date() < deadline, !server.hasEnded {
            let said = String(decoding: server.standardOutputSoFar, as: UTF8.self)
            if said.hasSuffix("\n") {
                number = said.trimmingCharacters(in: .whitespacesAndNewlines)
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(Int(number) != nil, "Xvfb named no display within 60 s")
        let display = ":" + number
        return XtermScreen(display: display, server: server)
    }

    private init(display: String, server: ChildProcess) {
        self.display = display
        self.server = server
    }

    /// One xterm: its process, and the files its shell and its log write.
    struct Window {
        let process: ChildProcess
        /// Where the shell writes `$WINDOWID`, for a screenshot of this window alone.
        let idFile: String
        /// xterm's log (`-l -lf`): everything the terminal received, to know when gymcard's frame came.
        let log: String
    }

    /// Starts xterm (`-ti vt340` for sixel) with a dark theme and `font` at 11 pt, running `command` in
    /// bash, `size` columns by rows; `resources` are `-xrm` lines. Its files go in `directory`.
    func open(
        vt340: Bool, command: String, size: String = "120x36", font: String = "DejaVu Sans Mono",
        resources: [String] = [], directory: String
    ) async throws -> Window {
        let name = UUID().uuidString
        let window = Window(
            process: try await ChildProcess.start(
                "/usr/bin/xterm",
                (vt340 ? ["-ti", "vt340"] : []) + resources.flatMap { ["-xrm", $0] } + [
                    "-geometry", size + "+0+0", "-bg", "#1e1e1e", "-fg", "#d0d0d0", "-fa", font, "-fs", "11",
                    "-l", "-lf", directory + "/xterm-\(name).log",
                    "-e", "bash", "--norc", "--noprofile", "-c",
                    "echo $WINDOWID > \(directory)/window-\(name); " + command + "; sleep 900",
                ],
                environment: ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }),
            idFile: directory + "/window-\(name)", log: directory + "/xterm-\(name).log")
        terminals.append(window.process)
        return window
    }

    /// Closes the window (its shell and gymcard get a hang-up).
    func close(_ window: Window) { window.process.send(SIGTERM) }

    /// The window (or, without one, the whole screen), in grey levels.
    func screenshot(_ window: Window? = nil) async throws -> GrayImage {
        let path = NSTemporaryDirectory() + "/gymcard-xwd-\(UUID().uuidString)"
        defer { unlink(path) }
        var target = ["-root"]
        if let window, let id = try? String(contentsOfFile: window.idFile, encoding: .utf8) {
            target = ["-id", id.trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        try await runTool(["/usr/bin/xwd", "-display", display] + target + ["-silent", "-out", path])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try await OffThePool.compute { try XWDImage.gray(bytes) }
    }

    /// Waits until `text` reaches the terminal (gymcard's frame ends with the caption), at most
    /// `startSeconds` (a loaded machine may start gymcard late); then until a screenshot of the window
    /// decodes, for `drawnSeconds` and at least `attempts` screenshots (on a loaded machine each takes
    /// longer, and so does the wait): what the terminal received and did not show by then it does not
    /// show. Returns what was decoded (nothing, if it never was) and the last screenshot.
    func waitForSymbols(
        _ window: Window, after text: String, startSeconds: Double = 120, drawnSeconds: Double = 15,
        attempts: Int = 8
    ) async throws -> ([String], GrayImage) {
        let started = Date().addingTimeInterval(startSeconds)
        let marker = Data(text.utf8)
        while Date() < started {
            if let log = FileManager.default.contents(atPath: window.log), log.range(of: marker) != nil {
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let deadline = Date().addingTimeInterval(drawnSeconds)
        var image = try await screenshot(window)
        var tried = 0
        while true {
            let shot = image
            let decoded = await OffThePool.compute { ZBarReader().decode(shot).map(\.text) }
            tried += 1
            if !decoded.isEmpty || (Date() >= deadline && tried >= attempts) { return (decoded, image) }
            try await Task.sleep(for: .milliseconds(200))
            image = try await screenshot(window)
        }
    }

    deinit {
        for terminal in terminals { terminal.send(SIGTERM) }
        server.send(SIGTERM)
    }
}

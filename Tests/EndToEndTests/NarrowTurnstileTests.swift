import Foundation
import Scanner
import TerminalText
import TestSupport
import Testing

/// One look at a tmux pane: its lines with colours (for rasterizing) and as text.
struct PaneCapture {
    let escaped: [String]
    let plain: [String]

    /// The text of the screen, one line after another.
    var text: String { plain.joined(separator: "\n") }
    /// The text as one line: a wrapped sentence reads whole.
    var flowing: String {
        plain.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension TmuxSession {
    /// Captures the pane until `isWhole` accepts what it shows, the command ends (`status=` shows) or
    /// `seconds` pass (a hang detector: a redraw is a stream of writes, and a loaded machine may be
    /// captured mid-draw); returns the last capture, which the test then checks.
    func waitForCapture(seconds: Double = 300, until isWhole: (PaneCapture) async -> Bool) async throws
        -> PaneCapture
    {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let capture = PaneCapture(escaped: try await screen(escapes: true), plain: try await screen())
            if await isWhole(capture) || capture.text.contains("status=") || Date() >= deadline {
                return capture
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// What libzbar reads from the drawing on screen, as `symbology:text`.
func readScreen(_ lines: [String]) async -> [String] {
    let image = rasterize(drawingLines(lines))
    return await OffThePool.glance { ZBarReader().decode(image).map { "\($0.symbology):\($0.text)" } }
}

@Suite("gymcard show on narrow and resized terminals: turned, the QR code, or what it needs", .serialized)
struct NarrowTurnstileTests {
    static let barcode = ["codabar:A905123456B"]
    static let qrCode = ["qr:A905123456B"]
    static let hint = ["any key closes", "turn the screen brightness up"]

    func command(_ home: TemporaryDirectory, _ arguments: String) -> String {
        "echo ready; " + GymcardProcess(home: home.path).shellCommand(arguments) + "; echo status=$?"
    }

    /// The drawing's lines: how many, and the widest in cells.
    func drawingSize(_ capture: PaneCapture) -> (rows: Int, columns: Int) {
        let lines = drawingLines(capture.escaped)
        return (lines.count, lines.map { $0.visibleWidth }.max() ?? 0)
    }

    /// Every hint part whole on its own line.
    func hintIsWhole(_ capture: PaneCapture) -> Bool {
        Self.hint.allSatisfy { part in capture.plain.contains { $0.contains(part) } }
    }

    @Test(
        "in tmux at 40 columns and 100 rows: the barcode turned a quarter scans, the hint wraps whole",
        .enabled(if: TmuxSession.isAvailable))
    func turnedAtFortyColumns() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(
            columns: 40, rows: 100, command: command(home, "show --id 905123456 --timeout 0"))
        let capture = try await tmux.waitForCapture {
            await readScreen($0.escaped) == Self.barcode && hintIsWhole($0) && $0.text.contains("9051-23456")
        }
        try #require(await readScreen(capture.escaped) == Self.barcode, "\(capture.text)")
        let size = drawingSize(capture)
        // 68 rows of bars from the first to the last (the quiet zones are 5 light rows each side).
        #expect(size.rows >= 68 && size.columns <= 40, "turned: taller than wide, \(size)")
        #expect(hintIsWhole(capture), "\(capture.text)")
        #expect(!capture.flowing.contains("QR code"))
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }

    @Test(
        "in tmux at 40×40: neither way fits, so the QR code, with a word that says so, and the hint whole",
        .enabled(if: TmuxSession.isAvailable))
    func qrCodeAtFortyByForty() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(columns: 40, rows: 40, command: command(home, "show --id 905123456 --timeout 0"))
        let capture = try await tmux.waitForCapture {
            await readScreen($0.escaped) == Self.qrCode && hintIsWhole($0)
                && $0.flowing.contains("not every scanner reads")
        }
        try #require(await readScreen(capture.escaped) == Self.qrCode, "\(capture.text)")
        #expect(capture.flowing.contains("9051-23456"))
        #expect(
            capture.flowing.contains(
                "too small for the barcode (it needs 78 columns, or 84 rows turned): this is its QR code, "
                    + "which not every scanner reads"), "\(capture.text)")
        #expect(hintIsWhole(capture), "\(capture.text)")
        #expect(capture.plain.allSatisfy { $0.count <= 40 })
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }

    @Test(
        "in tmux: 100 → 60 columns turns the barcode, 60×40 shows the QR code, 100 again draws it across; the view stays open",
        .enabled(if: TmuxSession.isAvailable))
    func resizeBothWays() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(
            columns: 100, rows: 100, command: command(home, "show --id 905123456 --timeout 0"))
        let steps: [(columns: Int, rows: Int, reads: [String], turned: Bool)] = [
            (100, 100, Self.barcode, false), (60, 100, Self.barcode, true), (60, 40, Self.qrCode, false),
            (100, 100, Self.barcode, false),
        ]
        for (index, step) in steps.enumerated() {
            if index > 0 {
                try await tmux.tmux([
                    "resize-window", "-t", tmux.name, "-x", "\(step.columns)", "-y", "\(step.rows)",
                ])
            }
            let capture = try await tmux.waitForCapture {
                let size = drawingSize($0)
                return await readScreen($0.escaped) == step.reads && (size.rows > size.columns) == step.turned
                    && hintIsWhole($0)
            }
            let label = "\(step.columns)×\(step.rows)"
            try #require(!capture.text.contains("status="), "the view ended at \(label): \(capture.text)")
            #expect(await readScreen(capture.escaped) == step.reads, "\(label): \(capture.text)")
            let size = drawingSize(capture)
            #expect((size.rows > size.columns) == step.turned, "\(label): \(size)")
            #expect(hintIsWhole(capture), "\(label)")
        }
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }

    @Test(
        "in tmux at 20×12: nothing fits; one line with what each form needs, exit 74",
        .enabled(if: TmuxSession.isAvailable))
    func nothingFits() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(columns: 20, rows: 12, command: command(home, "show --id 905123456"))
        try await tmux.waitFor("status=74")
        let joined = try await tmux.tmux(["capture-pane", "-t", tmux.name, "-p", "-J"])
        let message = try #require(joined.split(separator: "\n").first { $0.hasPrefix("gymcard:") })
        #expect(message.contains("the terminal is 20×12, too small for the card: it needs 78 columns, "))
        #expect(message.contains(" rows turned, or 29 columns and "))
        #expect(message.contains(" rows for its QR code; enlarge the window, or write an image with --png"))
        // What it says the QR code needs is exactly enough: at that size it shows, one row less it does not.
        let said = try #require(message.firstMatch(of: #/or (\d+) columns and (\d+) rows for its QR code/#))
        let (columns, rows) = (try #require(Int(said.1)), try #require(Int(said.2)))
        let enough = TmuxSession()
        defer { enough.kill() }
        try await enough.start(
            columns: columns, rows: rows, command: command(home, "show --id 905123456 --timeout 0"))
        let capture = try await enough.waitForCapture { await readScreen($0.escaped) == Self.qrCode }
        #expect(await readScreen(capture.escaped) == Self.qrCode, "\(columns)×\(rows): \(capture.text)")
        try await enough.tmux(["send-keys", "-t", enough.name, "x"])
        try await enough.waitFor("status=0")
        let short = TmuxSession()
        defer { short.kill() }
        try await short.start(columns: columns, rows: rows - 1, command: command(home, "show --id 905123456"))
        try await short.waitFor("status=74")
    }

    @Test(
        "in tmux, --inline: turned at 40×100; the QR code at 40×40 with a warning that says so",
        .enabled(if: TmuxSession.isAvailable))
    func inlineNarrow() async throws {
        let home = try TemporaryDirectory()
        let turned = TmuxSession()
        defer { turned.kill() }
        try await turned.start(columns: 40, rows: 100, command: command(home, "show --id 905123456 --inline"))
        try await turned.waitFor("status=")
        let tall = PaneCapture(
            escaped: try await turned.screen(escapes: true), plain: try await turned.screen())
        #expect(tall.text.contains("status=0"), "\(tall.text)")
        #expect(await readScreen(tall.escaped) == Self.barcode, "\(tall.text)")
        #expect(drawingSize(tall).rows >= 68)
        #expect(!tall.text.contains("gymcard:"), "nothing to say: \(tall.text)")

        let square = TmuxSession()
        defer { square.kill() }
        try await square.start(columns: 40, rows: 40, command: command(home, "show --id 905123456 --inline"))
        try await square.waitFor("status=")
        let qr = PaneCapture(
            escaped: try await square.screen(escapes: true), plain: try await square.screen())
        #expect(qr.text.contains("status=0"), "\(qr.text)")
        #expect(await readScreen(qr.escaped) == Self.qrCode, "\(qr.text)")
        let joined = try await square.tmux(["capture-pane", "-t", square.name, "-p", "-J"])
        #expect(
            joined.contains(
                "gymcard: the terminal is too small for the barcode (it needs 78 columns, or 79 rows turned): "
                    + "this is its QR code, which not every scanner reads; enlarge the window, or write the "
                    + "barcode with --png <file>"), "\(joined)")
    }

    @Test(
        "in tmux at 40 columns: a Code 128 card turned scans as Code 128",
        .enabled(if: TmuxSession.isAvailable))
    func code128Turned() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(
            columns: 40, rows: 100,
            command: command(home, "show --id GYM0042a7 --symbology code128 --timeout 0"))
        let capture = try await tmux.waitForCapture {
            await readScreen($0.escaped) == ["code128:GYM0042a7"] && hintIsWhole($0)
        }
        try #require(await readScreen(capture.escaped) == ["code128:GYM0042a7"], "\(capture.text)")
        let size = drawingSize(capture)
        #expect(size.rows > size.columns, "turned: \(size)")
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }
}

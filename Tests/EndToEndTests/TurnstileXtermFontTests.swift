import Codabar
import Foundation
import Imaging
import Symbols
import TestSupport
import Testing

/// `gymcard show` in xterm `-ti vt340` at three pinned fonts × four window sizes, two of them wider and one
/// taller than xterm's 1000 px sixel limit, and once with `maxGraphicSize` at 600×400: the card is a sixel
/// image inside the limit, each bar a whole number of pixels, at least two a module, and libzbar reads the
/// exact ID from the screenshot. At 300×200, too small for two pixels a module, it is drawn in blocks,
/// which scan as well.
@Suite(
    "gymcard show in xterm under Xvfb at three fonts and four sizes: the sixel card stays inside xterm's limit and scans",
    .serialized,
    .enabled(
        if: XtermScreen.isAvailable || XtermScreen.mustRun,
        "needs Xvfb, xterm, xwd and the pinned fonts (scripts/install-system-packages)"))
struct TurnstileXtermFontTests {
    struct Case: CustomStringConvertible {
        var font: String
        var size: String
        /// `-xrm` lines for xterm.
        var resources: [String] = []
        /// The largest sixel image this xterm draws.
        var limit: (width: Int, height: Int) = (1000, 1000)
        /// The limit leaves under 2 px a module, and the card is drawn in blocks instead.
        var blocks = false

        var description: String { "\(font) 11 pt, \(size)" + resources.map { ", " + $0 }.joined() }
    }

    /// At 11 pt, cells are 9×19 px (DejaVu Sans Mono), 11×22 (Noto Sans Mono), 9×18 (Liberation Mono):
    /// 80×24 is under 1000 px wide in all three; 150×40 and 200×50 are over it (1354–2204 px), and the
    /// Codabar across is wider than 1000 px when nothing bounds it; 40×70 is over 1000 px tall, and the card
    /// is turned, longer than 1000 px when nothing bounds it.
    static let cases: [Case] =
        XtermScreen.fonts.flatMap { font in
            ["80x24", "150x40", "200x50", "40x70"].map { Case(font: font, size: $0) }
        } + [
            Case(
                font: "Noto Sans Mono", size: "120x36", resources: ["XTerm*maxGraphicSize: 600x400"],
                limit: (600, 400)),
            // 300 px hold the 155-module Codabar at 1 px a module only: blocks, half a cell a module.
            Case(
                font: "DejaVu Sans Mono", size: "120x36", resources: ["XTerm*maxGraphicSize: 300x200"],
                limit: (300, 200), blocks: true),
        ]

    /// The bars a screenshot shows: the dark/light pattern from the first bar to the last along the line
    /// (a row, or a column when turned) that crosses the most bars, and how many lines repeat it exactly.
    static func bars(_ image: GrayImage) -> (pattern: [Bool], lines: Int, changes: Int) {
        func line(_ y: Int) -> ArraySlice<UInt8> { image.pixels[(y * image.width)..<((y + 1) * image.width)] }
        func pattern(_ y: Int) -> [Bool] {
            // Light is the image's white only: the dark theme's background is dark, as the bars are, and the
            // caption's grey text (#d0d0d0) counts as dark too.
            let row = line(y).map { $0 < 240 }
            guard let whiteStart = row.firstIndex(of: false), let whiteEnd = row.lastIndex(of: false),
                let first = row[whiteStart...whiteEnd].firstIndex(of: true),
                let last = row[whiteStart...whiteEnd].lastIndex(of: true)
            else { return [] }
            return Array(row[first...last])
        }
        func changes(_ pattern: [Bool]) -> Int { zip(pattern, pattern.dropFirst()).filter { $0 != $1 }.count }
        var best: [Bool] = []
        for y in stride(from: 0, to: image.height, by: 3) {
            let candidate = pattern(y)
            if changes(candidate) > changes(best) { best = candidate }
        }
        let lines = (0..<image.height).filter { pattern($0) == best }.count
        return (best, lines, changes(best))
    }

    /// One X server for all the cases, one xterm at a time (a window's screenshot is read from the screen,
    /// so no other window may cover it).
    @Test("the Codabar card, full screen: inside the limit, whole pixels, at least 2 a module, and it scans")
    func fontsAndSizes() async throws {
        try XtermScreen.requirePrerequisites()
        let screen = try await XtermScreen.start(width: 2400, height: 1600)
        let symbol = try CodabarSymbol(normalizing: "905123456")
        for testCase in Self.cases {
            let home = try TemporaryDirectory()
            let command =
                "unset TMUX; "
                + GymcardProcess(home: home.path).shellCommand("show --id 905123456 --timeout 0")
            let window = try await screen.open(
                vt340: true, command: command, size: testCase.size, font: testCase.font,
                resources: testCase.resources, directory: home.path)
            let (decoded, image) = try await screen.waitForSymbols(window, after: "9051-23456")
            screen.close(window)
            _ = try? await window.process.wait(timeoutSeconds: 30)
            #expect(decoded == ["A905123456B"], "\(testCase)")
            guard decoded == ["A905123456B"] else { continue }
            let log = FileManager.default.contents(atPath: window.log) ?? Data()
            let sixel = log.range(of: Data("\u{1B}P0;1;0q".utf8)) != nil
            #expect(sixel != testCase.blocks, "a sixel image, or blocks: \(testCase)")
            if testCase.blocks { continue }
            // Across, or turned: the bars read along a row, or along a column of the turned screenshot.
            let across = Self.bars(image)
            let turned = Self.bars(image.transposed())
            let (bars, isTurned) = across.changes >= turned.changes ? (across, false) : (turned, true)
            let narrow = (1...32).first { narrow in
                let row = CodabarLayout.standard.row(of: symbol, narrowWidth: narrow)
                guard let first = row.firstIndex(of: true), let last = row.lastIndex(of: true) else {
                    return false
                }
                return Array(row[first...last]) == bars.pattern
            }
            let module = try #require(narrow, "each bar a whole number of pixels: \(testCase)")
            #expect(module >= 2, "\(testCase)")
            // The image is the symbol with its quiet zones (155 modules at 1 px), the bars its whole breadth.
            let length = CodabarLayout.standard.row(of: symbol, narrowWidth: module).count
            let (along, crosswise) =
                isTurned
                ? (testCase.limit.height, testCase.limit.width)
                : (testCase.limit.width, testCase.limit.height)
            #expect(
                length <= along && bars.lines <= crosswise, "\(testCase): \(length) px, \(bars.lines) lines")
        }
    }
}

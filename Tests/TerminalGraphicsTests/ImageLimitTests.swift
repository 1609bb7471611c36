import Codabar
import Foundation
import Imaging
import Symbologies
import Symbols
import TerminalGraphics
import TestSupport
import Testing
import Turnstile

/// The card's size under a terminal's image limit, over a generated space of limits × cell sizes ×
/// terminal sizes × symbols: the image sent is never past the limit nor the window, each module is a
/// whole number of pixels, and it is the largest that fits; with fewer than two pixels per module, blocks
/// where they fit.
@Suite("The card under a terminal's image limit")
struct ImageLimitTests {
    /// A symbol as the rule sees it: a row of bars (its pixels at 1…32 pixels per module), or a grid.
    enum Shape {
        case bars([[Bool]])
        case grid(ModuleMatrix)
    }

    struct Symbol: Sendable {
        var name: String
        var drawing: TurnstileContent.Drawing
        var shape: @Sendable () -> Shape
    }

    static let codabarSymbol = try? CodabarSymbol(normalizing: "905123456")
    static let code128 = try? ModuleMatrix(
        encoding: BarcodeContent(symbology: .code128, normalizing: "GYM0042A7-2025-MEMBER-0417"))
    static let qr = try? QRSymbol(encoding: "A905123456B")

    static var symbols: [Symbol] {
        guard let codabarSymbol, let code128, let qr else { return [] }
        return [
            Symbol(
                name: "Codabar", drawing: .codabar(codabarSymbol, .standard),
                shape: {
                    .bars((1...32).map { CodabarLayout.standard.row(of: codabarSymbol, narrowWidth: $0) })
                }),
            Symbol(
                name: "Code 128, 26 characters", drawing: .matrix(code128),
                shape: { .bars((1...32).map { code128.pixelRow(moduleWidth: $0) }) }),
            Symbol(name: "QR", drawing: .qr(qr), shape: { .grid(qr.matrix) }),
        ]
    }

    /// None; xterm's default and its current geometry in a 120×36 window of 11 pt Noto Sans Mono (measured,
    /// ARCHITECTURE §11); the goal's 600×400; larger than any window here; small ones that leave blocks.
    static let limits: [PixelSize?] = [
        nil, PixelSize(width: 1000, height: 1000), PixelSize(width: 1000, height: 792),
        PixelSize(width: 600, height: 400), PixelSize(width: 4000, height: 4000),
        PixelSize(width: 320, height: 240),
        PixelSize(width: 150, height: 100),
    ]
    /// Cells of DejaVu Sans Mono, Liberation Mono and Noto Sans Mono at 8–14 pt (xterm, measured), and a
    /// HiDPI one.
    static let cells = [
        PixelSize(width: 6, height: 13), PixelSize(width: 7, height: 15), PixelSize(width: 9, height: 18),
        PixelSize(width: 9, height: 19), PixelSize(width: 11, height: 22), PixelSize(width: 13, height: 27),
        PixelSize(width: 16, height: 33),
    ]
    static let terminals = [(40, 40), (80, 24), (120, 36), (160, 50), (200, 60), (40, 100)]

    /// The most whole pixels per module (at most 32) with which `shape`, across or turned, fits `width` ×
    /// `height`; a row of bars needs a cell's breadth crosswise. 0 when none fits.
    static func largestModule(_ shape: Shape, width: Int, height: Int, cell: PixelSize) -> Int {
        switch shape {
        case .bars(let rows):
            func along(_ length: Int, crosswise: Int, least: Int) -> Int {
                guard crosswise >= least else { return 0 }
                return rows.lastIndex { $0.count <= length }.map { $0 + 1 } ?? 0
            }
            return max(
                along(width, crosswise: height, least: cell.height),
                along(height, crosswise: width, least: cell.width))
        case .grid(let matrix):
            return min(width / matrix.totalColumns, height / matrix.totalModuleRows, 32)
        }
    }

    /// Whether the block drawing fits `columns` × `rows` (half a cell per module along a row of bars, a
    /// bar row between two blank lines across or a bar of six columns between two light ones turned; a
    /// grid a cell wide and half a cell tall per module).
    static func blocksFit(_ shape: Shape, columns: Int, rows: Int) -> Bool {
        switch shape {
        case .bars(let pixelRows):
            let halves = (pixelRows[0].count + 1) / 2
            return (halves <= columns && rows >= 3)
                || (TerminalArt.minimumTurnedBarColumns + 2 <= columns && halves <= rows)
        case .grid(let matrix):
            return matrix.totalColumns <= columns && (matrix.totalModuleRows + 1) / 2 <= rows
        }
    }

    /// The module of `image` (grey, dark 0) when it is `shape` at whole pixels per module (across, or
    /// turned clockwise for a row of bars), else `nil`.
    static func wholeModule(_ image: GrayImage, _ shape: Shape) -> Int? {
        let width = image.width
        func grey(_ row: [Bool]) -> [UInt8] { row.map { $0 ? 0 : 255 } }
        // Rows compared with memcmp: the images reach millions of pixels, and the test is built unoptimized.
        func row(_ y: Int, equals expected: [UInt8]) -> Bool {
            guard expected.count == width else { return false }
            return image.pixels.withUnsafeBytes { pixels in
                expected.withUnsafeBytes { wanted in
                    guard let start = pixels.baseAddress, let other = wanted.baseAddress else {
                        return width == 0
                    }
                    return memcmp(start + y * width, other, width) == 0
                }
            }
        }
        switch shape {
        case .bars(let rows):
            if let index = rows.firstIndex(where: { $0.count == width && row(0, equals: grey($0)) }) {
                let first = grey(rows[index])
                return (0..<image.height).allSatisfy { row($0, equals: first) } ? index + 1 : nil
            }
            let column = (0..<image.height).map { image.pixels[$0 * width] == 0 }
            guard let index = rows.firstIndex(of: column) else { return nil }
            let dark = [UInt8](repeating: 0, count: width)
            let light = [UInt8](repeating: 255, count: width)
            let uniform = (0..<image.height).allSatisfy { row($0, equals: column[$0] ? dark : light) }
            return uniform ? index + 1 : nil
        case .grid(let matrix):
            let module = image.width / matrix.totalColumns
            guard module > 0 else { return nil }
            return image == MatrixRaster.image(of: matrix, moduleSize: module).grayImage ? module : nil
        }
    }

    /// The picture a kitty screen carries (its PNG, decoded by libpng), or `nil` for a screen of blocks.
    static func sentImage(_ screen: String) throws -> GrayImage? {
        guard screen.contains("\u{1B}_Ga=T") else { return nil }
        let sequences = screen.components(separatedBy: "\u{1B}\\").compactMap { part in
            part.range(of: "\u{1B}_G").map { String(part[$0.lowerBound...]) + "\u{1B}\\" }
        }
        let chunks = try kittyChunks(sequences.filter { !$0.contains("a=d") })
        let png = try #require(Data(base64Encoded: chunks.map(\.payload).joined()))
        return try PNGCodec.decodeGray([UInt8](png))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var symbol: Symbol
        var testDescription: String { symbol.name }
    }

    @Test(
        "never past the limit or the window, whole pixels per module, the largest that fits; blocks below two",
        arguments: symbols.map { Case(symbol: $0) })
    func generatedSpace(_ testCase: Case) throws {
        let symbol = testCase.symbol
        let shape = symbol.shape()
        let content = TurnstileContent(
            drawing: symbol.drawing, caption: "9051-23456", label: nil, hint: "any key")
        var counts = (images: 0, blocks: 0, shrunk: 0)
        for limit in Self.limits {
            for cell in Self.cells {
                for (columns, rows) in Self.terminals {
                    let geometry = ScreenGeometry(columns: columns, rows: rows, cellPixels: cell)
                    let place =
                        "\(columns)x\(rows) cells of \(cell.width)x\(cell.height), limit \(String(describing: limit))"
                    // The caption (ID, blank, label row, hint) takes 5 rows; a column of margin each side.
                    var width = (columns - 2) * cell.width
                    var height = (rows - 5) * cell.height
                    let window = Self.largestModule(shape, width: width, height: height, cell: cell)
                    if let limit {
                        width = min(width, limit.width)
                        height = min(height, limit.height)
                    }
                    let expected = Self.largestModule(shape, width: width, height: height, cell: cell)
                    let blocks = Self.blocksFit(shape, columns: columns, rows: rows - 5)
                    guard expected >= 1 || blocks else {
                        #expect(throws: SymbolError.self, "\(place)") {
                            try TurnstileFrame.render(
                                content, geometry: geometry, renderer: .kitty, colour: true,
                                maximumSize: limit)
                        }
                        continue
                    }
                    let screen = try TurnstileFrame.render(
                        content, geometry: geometry, renderer: .kitty, colour: true, maximumSize: limit)
                    // iTerm2 takes sequences up to 1 MiB (its inline-images document); the PNG is far below.
                    #expect(screen.utf8.count < 1 << 20)
                    guard let image = try Self.sentImage(screen) else {
                        #expect(
                            expected < 2 && blocks,
                            "blocks only when no image of 2 px a module fits: \(place)")
                        #expect(screen.contains("\u{1B}[38;5;16;48;5;231m"), "\(place)")
                        counts.blocks += 1
                        continue
                    }
                    counts.images += 1
                    if expected < window { counts.shrunk += 1 }
                    #expect(
                        image.width <= width && image.height <= height,
                        "\(place): \(image.width)x\(image.height)")
                    let module = Self.wholeModule(image, shape)
                    #expect(module == expected, "\(place): \(String(describing: module)) px a module")
                    #expect(expected >= 2 || !blocks, "\(place)")
                }
            }
        }
        // The space reaches every branch: images the limit shrank, and blocks where it left too little.
        #expect(counts.images > 0 && counts.shrunk > 0)
        #expect(symbol.name == "QR" || counts.blocks > 0)
    }

    @Test(
        "sixel, on a seeded sample of the space: the image xterm receives is the same, inside the limit, and under tmux's 1 MiB"
    )
    func sixelSample() throws {
        var random = SeededGenerator(seed: 38)
        let symbols = Self.symbols
        let limits = Self.limits.compactMap { $0 }
        var images = 0
        for _ in 0..<24 {
            let symbol = symbols.randomElement(using: &random)!
            let limit = limits.randomElement(using: &random)!
            let cell = Self.cells.randomElement(using: &random)!
            let (columns, rows) = Self.terminals.randomElement(using: &random)!
            let place =
                "\(symbol.name) at \(columns)x\(rows) cells of \(cell.width)x\(cell.height), limit \(limit)"
            let geometry = ScreenGeometry(columns: columns, rows: rows, cellPixels: cell)
            let content = TurnstileContent(
                drawing: symbol.drawing, caption: "9051-23456", label: nil, hint: "any key")
            guard
                let kitty = try? TurnstileFrame.render(
                    content, geometry: geometry, renderer: .kitty, colour: true, maximumSize: limit),
                let expected = try Self.sentImage(kitty)
            else { continue }
            let screen = try TurnstileFrame.render(
                content, geometry: geometry, renderer: .sixel, colour: true, maximumSize: limit)
            let start = try #require(screen.range(of: "\u{1B}P0;1;0q"), "\(place)")
            let end = try #require(screen.range(of: "\u{1B}\\", range: start.upperBound..<screen.endIndex))
            let sequence = String(screen[start.lowerBound..<end.upperBound])
            // tmux drops a pass-through sequence over its 1 MiB input buffer (ARCHITECTURE §11).
            #expect(sequence.utf8.count < 1 << 20, "\(place)")
            let image = try decodeSixel(sequence)
            #expect(image.width <= limit.width && image.height <= limit.height, "\(place)")
            #expect(image.grayImage == expected, "\(place)")
            images += 1
        }
        #expect(images >= 16, "most of the sample draws an image")
    }
}

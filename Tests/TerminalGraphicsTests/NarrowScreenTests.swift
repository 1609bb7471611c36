import Codabar
import Foundation
import Imaging
import Scanner
import Symbologies
import Symbols
import TerminalGraphics
import TerminalText
import TestSupport
import Testing
import Turnstile

/// The lines a screen string draws, by row, from its cursor moves (`ESC [row;columnH`), colour codes
/// kept for the rasterizer.
func screenLines(_ screen: String, rows: Int) -> [String] {
    let scalars = Array(screen.unicodeScalars)
    var lines = [String](repeating: "", count: rows)
    var row: Int?
    var index = 0
    while index < scalars.count {
        if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
            var end = index + 2
            var parameters = ""
            while end < scalars.count, "0123456789;".unicodeScalars.contains(scalars[end]) {
                parameters.unicodeScalars.append(scalars[end])
                end += 1
            }
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            if end < scalars.count, scalars[end] == "H", numbers.count == 2, (1...rows).contains(numbers[0]) {
                row = numbers[0] - 1
                lines[numbers[0] - 1] = String(repeating: " ", count: numbers[1] - 1)
                index = end + 1
                continue
            }
        }
        if let row { lines[row].unicodeScalars.append(scalars[index]) }
        index += 1
    }
    return lines
}

@Suite("The card on narrow screens: turned, the QR code, or what it needs")
struct NarrowScreenTests {
    static func symbol() throws -> CodabarSymbol { try CodabarSymbol(normalizing: "905123456") }
    static func content(label: String? = nil) throws -> TurnstileContent {
        TurnstileContent(
            drawing: .codabar(try symbol(), .standard), caption: "9051-23456", label: label,
            hint: "any key closes · turn the screen brightness up",
            qrCode: try QRSymbol(encoding: "A905123456B"))
    }

    @Test("a bitmap on a 40×40 screen is turned: more pixels per module than across, and it scans")
    func turnedBitmap() async throws {
        let geometry = ScreenGeometry(columns: 40, rows: 40, cellPixels: PixelSize(width: 10, height: 20))
        let image = try #require(
            try TurnstileFrame.bitmap(for: .codabar(try Self.symbol(), .standard), geometry: geometry))
        #expect(image.height > image.width)
        #expect(image.height <= 35 * 20 && image.width <= 38 * 10)
        // Each module a whole number of pixels: the first column is the layout at 4 px per narrow bar
        // (across, 380 px hold only 2).
        let column = (0..<image.height).map { image[0, $0] }
        #expect(column == CodabarLayout.standard.row(of: try Self.symbol(), narrowWidth: 4))
        let decoded = await OffThePool.compute { ZBarReader().decode(image.grayImage).map(\.text) }
        #expect(decoded == ["A905123456B"])
    }

    @Test("a wide PDF417 bitmap on a narrow, tall screen is turned, each module square")
    func turnedGridBitmap() throws {
        let matrix = try ModuleMatrix(
            encoding: try BarcodeContent(symbology: .pdf417, normalizing: "400638133393"))
        let geometry = ScreenGeometry(columns: 20, rows: 60, cellPixels: PixelSize(width: 8, height: 16))
        let image = try #require(try TurnstileFrame.bitmap(for: .matrix(matrix), geometry: geometry))
        #expect(matrix.totalColumns > matrix.totalModuleRows)
        #expect(image.height > image.width)
        let module = image.height / matrix.totalColumns
        #expect(module >= 1 && image.width == module * matrix.totalModuleRows)
        // The across image turned a quarter clockwise: its left column is the top row.
        let across = MatrixRaster.image(of: matrix, moduleSize: module)
        #expect((0..<image.width).allSatisfy { x in image[x, 0] == across[0, across.height - 1 - x] })
    }

    @Test(
        "each pixel renderer draws at 40×40, the hint whole on two rows",
        arguments: TurnstileRenderer.allCases)
    func pixelRenderersAtForty(_ renderer: TurnstileRenderer) throws {
        let geometry = ScreenGeometry(columns: 40, rows: 40, cellPixels: PixelSize(width: 10, height: 20))
        let screen = try TurnstileFrame.render(
            try Self.content(), geometry: geometry, renderer: renderer, colour: false)
        #expect(screen.contains("\u{1B}[39;14Hany key closes"))
        #expect(screen.contains("\u{1B}[40;6Hturn the screen brightness up"))
    }

    @Test("blocks at 40×100: turned, two modules a row, and it scans; nothing said of a QR code")
    func turnedBlocks() async throws {
        let geometry = ScreenGeometry(columns: 40, rows: 100, cellPixels: nil)
        let screen = try TurnstileFrame.render(
            try Self.content(), geometry: geometry, renderer: .blocks, colour: true)
        #expect(!screen.contains("QR code"))
        let lines = screenLines(screen, rows: 100).filter { $0.contains("\u{1B}[38;5;") }
        #expect(lines.count == 78)
        let image = rasterize(lines)
        let decoded = await OffThePool.compute { ZBarReader().decode(image).map(\.text) }
        #expect(decoded == ["A905123456B"])
    }

    @Test("blocks at 40×40: the QR code, with the word, both hint parts and the label in the rows")
    func qrCodeBlocks() async throws {
        let geometry = ScreenGeometry(columns: 40, rows: 40, cellPixels: nil)
        let screen = try TurnstileFrame.render(
            try Self.content(label: "Gym card"), geometry: geometry, renderer: .blocks, colour: false)
        let lines = screenLines(screen, rows: 40)
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(
            separator: " ")
        #expect(
            text.contains(
                "9051-23456 Gym card too small for the barcode (it needs 78 columns, or 84 rows turned): this is its "
                    + "QR code, which not every scanner reads any key closes turn the screen brightness up"),
            "\(text)")
        #expect(lines.allSatisfy { $0.visibleWidth <= 40 })
        let image = rasterize(lines.filter { $0.contains("▀") || $0.contains("▄") || $0.contains("48;5;16") })
        let decoded = await OffThePool.compute {
            ZBarReader().decode(image).map { "\($0.symbology):\($0.text)" }
        }
        #expect(decoded == ["qr:A905123456B"])
    }

    @Test("nothing fits: what each form needs, the shortfall named, in one line")
    func nothingFits() throws {
        let geometry = ScreenGeometry(columns: 20, rows: 12, cellPixels: nil)
        let content = try Self.content()
        let error = try #require(
            #expect(throws: SymbolError.self) {
                try TurnstileFrame.render(content, geometry: geometry, renderer: .blocks, colour: false)
            })
        guard case .terminalTooSmall(let needs, let columns, let rows) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(needs.map(\.form) == [CardForm.across, .turned, .qrCode])
        #expect(needs.map(\.columns) == [78, 8, 29])
        #expect(columns == 20 && rows == 12)
        #expect(
            error.description.hasPrefix(
                "the terminal is 20×12, too small for the card: it needs 78 columns, "))
        #expect(!error.description.contains("\n"))
    }

    @Test(
        "inline: across when it fits, turned at 40 columns, the QR code and a word when the rows are too few")
    func inline() async throws {
        let content = try Self.content()
        let across = try InlineCard.lines(
            content.drawing, qrCode: content.qrCode, palette: .blackOnWhite, columns: 80, rows: 24)
        #expect(across.notice == nil && across.lines.count < 20)
        let turned = try InlineCard.lines(
            content.drawing, qrCode: content.qrCode, palette: .blackOnWhite, columns: 40, rows: nil)
        #expect(turned.notice == nil && turned.lines.count == 78)
        let image = rasterize(turned.lines)
        #expect(await OffThePool.compute { ZBarReader().decode(image).map(\.text) } == ["A905123456B"])
        let qr = try InlineCard.lines(
            content.drawing, qrCode: content.qrCode, palette: .blackOnWhite, columns: 40, rows: 40)
        #expect(qr.notice?.contains("this is its QR code, which not every scanner reads") == true)
        #expect(qr.lines.count < 40)
        #expect(throws: SymbolError.self) {
            try InlineCard.lines(
                content.drawing, qrCode: content.qrCode, palette: .plain, columns: 20, rows: 12)
        }
    }

    @Test("a Code 128 card turned at 40 columns scans as Code 128")
    func code128Turned() async throws {
        let matrix = try ModuleMatrix(
            encoding: try BarcodeContent(symbology: .code128, normalizing: "GYM0042a7"))
        let card = try InlineCard.lines(
            .matrix(matrix), qrCode: nil, palette: .blackOnWhite, columns: 40, rows: nil)
        #expect(card.lines.count > 40)
        let image = rasterize(card.lines)
        let decoded = await OffThePool.compute {
            ZBarReader().decode(image).map { "\($0.symbology):\($0.text)" }
        }
        #expect(decoded == ["code128:GYM0042a7"])
    }
}

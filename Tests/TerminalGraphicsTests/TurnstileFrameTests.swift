import Codabar
import Imaging
import Scanner
import Symbologies
import Symbols
import TerminalGraphics
import TestSupport
import Testing
import Turnstile

@Suite("The turnstile screen")
struct TurnstileFrameTests {
    static func symbol() throws -> CodabarSymbol { try CodabarSymbol(normalizing: "905123456") }
    static func codabar() throws -> TurnstileContent.Drawing { .codabar(try symbol(), .standard) }
    static func qr() throws -> TurnstileContent.Drawing { .qr(try QRSymbol(encoding: "A905123456B")) }

    struct Screen: Sendable, CustomTestStringConvertible {
        var columns: Int
        var rows: Int
        var cell: PixelSize
        var testDescription: String { "\(columns)x\(rows) cells of \(cell.width)x\(cell.height) px" }
    }

    static let screens = [
        Screen(columns: 80, rows: 24, cell: PixelSize(width: 9, height: 18)),
        Screen(columns: 120, rows: 40, cell: PixelSize(width: 10, height: 20)),
        Screen(columns: 238, rows: 62, cell: PixelSize(width: 16, height: 33)),
        Screen(columns: 100, rows: 12, cell: PixelSize(width: 7, height: 15)),
    ]

    @Test(
        "the Codabar bitmap: the widest whole number of pixels per narrow bar that fits, and it scans",
        arguments: screens)
    func codabarBitmap(_ screen: Screen) async throws {
        let geometry = ScreenGeometry(columns: screen.columns, rows: screen.rows, cellPixels: screen.cell)
        let image = try #require(try TurnstileFrame.bitmap(for: try Self.codabar(), geometry: geometry))
        let availableWidth = (screen.columns - 2) * screen.cell.width
        #expect(image.width <= availableWidth)
        #expect(image.height <= (screen.rows - 5) * screen.cell.height)
        let row = Array(image.isDark[0..<image.width])
        let symbol = try Self.symbol()
        let narrow = (1...32).first { CodabarLayout.standard.row(of: symbol, narrowWidth: $0) == row }
        let width = try #require(narrow, "every bar a whole number of pixels")
        #expect(
            CodabarLayout.standard.row(of: symbol, narrowWidth: width + 1).count > availableWidth)
        // libzbar runs off the concurrency pool, which the suite's in-process servers need.
        let decoded = await OffThePool.compute { ZBarReader().decode(image.grayImage).map(\.text) }
        #expect(decoded == ["A905123456B"])
    }

    @Test("the QR bitmap: square whole-pixel modules that fit, and it scans", arguments: screens)
    func qrBitmap(_ screen: Screen) async throws {
        let geometry = ScreenGeometry(columns: screen.columns, rows: screen.rows, cellPixels: screen.cell)
        let image = try #require(try TurnstileFrame.bitmap(for: try Self.qr(), geometry: geometry))
        #expect(image.width == image.height)
        #expect(image.height <= (screen.rows - 5) * screen.cell.height)
        #expect(image.width % 29 == 0, "21 modules and the quiet zone, each a whole number of pixels")
        // libzbar runs off the concurrency pool, which the suite's in-process servers need.
        let decoded = await OffThePool.compute { ZBarReader().decode(image.grayImage).map(\.text) }
        #expect(decoded == ["A905123456B"])
    }

    @Test(
        "any symbology: the largest whole number of pixels per module that fits, the matrix pixel for pixel",
        arguments: [Symbologies.Symbology.code128, .ean13, .pdf417, .aztec])
    func matrixBitmap(_ symbology: Symbologies.Symbology) throws {
        let matrix = try ModuleMatrix(
            encoding: try BarcodeContent(symbology: symbology, normalizing: "400638133393"))
        for screen in Self.screens {
            let geometry = ScreenGeometry(columns: screen.columns, rows: screen.rows, cellPixels: screen.cell)
            let image = try #require(try TurnstileFrame.bitmap(for: .matrix(matrix), geometry: geometry))
            let availableWidth = (screen.columns - 2) * screen.cell.width
            #expect(image.width <= availableWidth)
            #expect(image.height <= (screen.rows - 5) * screen.cell.height)
            if matrix.isLinear {
                let row = Array(image.isDark[0..<image.width])
                let module = try #require((1...32).first { matrix.pixelRow(moduleWidth: $0) == row })
                #expect(module == 32 || matrix.pixelRow(moduleWidth: module + 1).count > availableWidth)
                // As tall as a third of its width, or the screen, and at least five modules.
                #expect(
                    image.height >= min(image.width / 3, (screen.rows - 5) * screen.cell.height, 5 * module))
                #expect(
                    (0..<image.height).allSatisfy {
                        Array(image.isDark[($0 * image.width)..<(($0 + 1) * image.width)]) == row
                    })
            } else {
                let module = image.width / matrix.totalColumns
                #expect(image == MatrixRaster.image(of: matrix, moduleSize: module))
                let larger = module + 1
                #expect(
                    larger * matrix.totalColumns > availableWidth
                        || larger * matrix.totalModuleRows > (screen.rows - 5) * screen.cell.height
                        || larger > 32)
            }
        }
    }

    @Test("a sixel limit (xterm's 1000x1000) bounds the bitmap")
    func sixelLimit() throws {
        let geometry = ScreenGeometry(columns: 300, rows: 80, cellPixels: PixelSize(width: 16, height: 32))
        let image = try #require(
            try TurnstileFrame.bitmap(
                for: try Self.codabar(), geometry: geometry, maximumSize: PixelSize(width: 1000, height: 1000)
            ))
        #expect(image.width <= 1000 && image.height <= 1000)
    }

    @Test("too small a screen says how wide it must be")
    func tooSmall() {
        let geometry = ScreenGeometry(columns: 30, rows: 24, cellPixels: PixelSize(width: 3, height: 6))
        #expect(throws: SymbolError.self) {
            try TurnstileFrame.bitmap(for: try Self.codabar(), geometry: geometry)
        }
    }

    @Test("no cell size, no bitmap: the screen is drawn in blocks")
    func unknownCells() throws {
        let geometry = ScreenGeometry(columns: 100, rows: 30, cellPixels: nil)
        #expect(try TurnstileFrame.bitmap(for: try Self.codabar(), geometry: geometry) == nil)
        let content = TurnstileContent(
            drawing: try Self.codabar(), caption: "9051-23456", label: nil, hint: "any key")
        let screen = try TurnstileFrame.render(content, geometry: geometry, renderer: .kitty, colour: true)
        #expect(screen.contains("▌"))
        #expect(!screen.contains("\u{1B}_Ga=T"))
    }

    @Test(
        "each renderer places its image, then the ID, the label and the hint in the screen's rows",
        arguments: TurnstileRenderer.allCases)
    func layout(_ renderer: TurnstileRenderer) throws {
        let geometry = ScreenGeometry(columns: 120, rows: 40, cellPixels: PixelSize(width: 10, height: 20))
        let content = TurnstileContent(
            drawing: try Self.codabar(), caption: "9051-23456", label: "Gym card", hint: "any key closes")
        let screen = try TurnstileFrame.render(content, geometry: geometry, renderer: renderer, colour: true)
        #expect(screen.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(screen.contains("9051-23456"))
        #expect(screen.contains("Gym card"))
        #expect(
            screen.contains("\u{1B}[40;54Hany key closes")
                || screen.contains("\u{1B}[40;54H\u{1B}[2many key closes"))
        // Every cursor move stays on the screen.
        let moves = screen.split(separator: "\u{1B}[").compactMap { part -> (Int, Int)? in
            guard let end = part.firstIndex(of: "H"), end != part.startIndex else { return nil }
            let numbers = part[..<end].split(separator: ";").compactMap { Int($0) }
            return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
        }
        #expect(!moves.isEmpty)
        for (row, column) in moves { #expect((1...40).contains(row) && (1...120).contains(column)) }
        switch renderer {
        case .kitty: #expect(screen.contains("\u{1B}_Ga=T,f=100"))
        case .sixel: #expect(screen.contains("\u{1B}P0;1;0q"))
        case .iterm: #expect(screen.contains("\u{1B}]1337;File="))
        case .blocks: #expect(screen.contains("\u{1B}[38;5;16;48;5;231m"))
        }
    }
}

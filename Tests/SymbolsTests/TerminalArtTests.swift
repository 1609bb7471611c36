import Codabar
import Imaging
import Scanner
import Symbols
import TestSupport
import Testing

@Suite("Terminal drawings")
struct TerminalArtTests {
    @Test("the Codabar drawing scans, at every ratio", arguments: [2.0, 2.5, 3.0])
    func codabarScans(ratio: Double) throws {
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let lines = try TerminalArt.codabar(
            symbol, layout: try CodabarLayout(ratio: ratio), palette: .blackOnWhite, availableColumns: 80)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[38;5;") && $0.hasSuffix("\u{1B}[0m") })
        #expect(
            lines.allSatisfy { !$0.contains("█") && !$0.contains("▐") },
            "colour output relies only on ▌ and spaces")
        #expect(ZBarReader().decode(rasterize(lines)).map(\.text) == [symbol.text])
    }

    @Test("a VT ID fits 80 columns; a wider terminal draws it larger, up to 4 half-columns per narrow bar")
    func fitsTheWidth() throws {
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let layout = try CodabarLayout()
        let narrow = try TerminalArt.codabar(symbol, layout: layout, palette: .plain, availableColumns: 80)
        let wide = try TerminalArt.codabar(symbol, layout: layout, palette: .plain, availableColumns: 400)
        let colourWide = try TerminalArt.codabar(
            symbol, layout: layout, palette: .blackOnWhite, availableColumns: 400)
        #expect(narrow[1].count <= 80)
        #expect(wide[1].count > 2 * narrow[1].count)
        #expect(wide[1].count <= 4 * narrow[1].count)
        #expect(ZBarReader().decode(rasterize(colourWide)).map(\.text) == [symbol.text])
    }

    @Test("the quiet zones are drawn: blank lines above and below, spaces left and right")
    func quietZones() throws {
        let lines = try TerminalArt.codabar(
            try CodabarSymbol(normalizing: "12345"), layout: try CodabarLayout(), palette: .plain,
            availableColumns: nil)
        #expect(lines.first?.allSatisfy { $0 == " " } == true)
        #expect(lines.last?.allSatisfy { $0 == " " } == true)
        #expect(lines[1].hasPrefix("     ") && lines[1].hasSuffix("     "))
    }

    @Test("too narrow a terminal says how wide it must be")
    func tooNarrow() throws {
        #expect(throws: SymbolError.terminalTooNarrow(requiredColumns: 78, availableColumns: 60)) {
            try TerminalArt.codabar(
                try CodabarSymbol(normalizing: "905123456"), layout: try CodabarLayout(), palette: .plain,
                availableColumns: 60)
        }
    }

    @Test("plain rendering has no escape codes")
    func plain() throws {
        let lines = try TerminalArt.qr(
            try QRSymbol(encoding: "A905123456B"), palette: .plain, availableColumns: nil)
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") })
    }

    @Test("with room, a colour QR uses two background-coloured spaces per module and scans")
    func qrFullCells() throws {
        let lines = try TerminalArt.qr(
            try QRSymbol(encoding: "A905123456B"), palette: .blackOnWhite, availableColumns: 80,
            availableRows: 40)
        #expect(lines.count == 21 + 8)
        #expect(lines.allSatisfy { !$0.contains("▀") && !$0.contains("▄") && !$0.contains("█") })
        #expect(ZBarReader().decode(rasterize(lines)).map(\.text) == ["A905123456B"])
    }

    @Test("the QR drawing scans")
    func qrScans() throws {
        let lines = try TerminalArt.qr(
            try QRSymbol(encoding: "A905123456B"), palette: .blackOnWhite, availableColumns: 80)
        #expect(lines.count == (21 + 8 + 1) / 2)
        #expect(ZBarReader().decode(rasterize(lines, fullBlockWidth: 11)).map(\.text) == ["A905123456B"])
    }
}

@Suite("SVG and file names")
struct SVGAndFileNameTests {
    @Test(
        "the SVG is as wide as the PNG, carries the exact ratio and draws text as paths",
        arguments: [2.0, 2.5, 3.0])
    func svgGeometry(ratio: Double) throws {
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let style = try BarcodeStyle(
            narrowBarWidth: 2, showsText: true, layout: try CodabarLayout(ratio: ratio))
        let svg = SVGDocument.codabar(symbol, style: style)
        let units = try CodabarLayout(ratio: ratio).elementWidths(of: symbol).reduce(0, +)
        let width = units * 2
        let widthText = width == width.rounded() ? String(Int(width)) : String(width)
        #expect(svg.contains("width=\"\(widthText)\""))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(!svg.contains("<text"))
        #expect(svg.hasPrefix("<?xml"))
        if ratio == 2.5 { #expect(svg.contains("h5v")) }
    }

    @Test(
        "batch file names are the normalized ID, with / : $ made safe",
        arguments: [
            ("123456789", "A123456789B.png"), ("C1/2:3$4D", "C1_2=3S4D.png"), ("12.5+1", "A12.5+1B.png"),
        ])
    func fileNames(id: String, expected: String) throws {
        #expect(SymbolFileName.name(for: try CodabarSymbol(normalizing: id), extension: "png") == expected)
    }
}

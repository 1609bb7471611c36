import Codabar
import Imaging
import Scanner
import Symbologies
import Symbols
import TestSupport
import Testing

/// Every rendered symbol is proven by the real libzbar decoding the real PNG libpng wrote.
@Suite("Render → PNG → libpng → libzbar round trips")
struct RoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var ratio: Double
        var scale: Int
        var testDescription: String { "\(text) ratio \(ratio) scale \(scale)" }
    }

    /// A few hundred seeded IDs over the whole data alphabet, all 16 start/stop pairs, data lengths 1–40.
    static let cases: [Case] = {
        var generator = SeededGenerator(seed: 0x6779_6D63_6172_64)
        let dataAlphabet = Array("0123456789-$:/.+")
        let startStop = Array("ABCD")
        let ratios = [2.0, 2.5, 3.0]
        var cases: [Case] = []
        for index in 0..<320 {
            let length = index < 40 ? index + 1 : Int.random(in: 1...40, using: &generator)
            let data = String((0..<length).map { _ in dataAlphabet.randomElement(using: &generator) ?? "0" })
            let pair = index % 16
            let text = String(startStop[pair / 4]) + data + String(startStop[pair % 4])
            let ratio = ratios[index % 3]
            // Ratio 2.0 at 1 px narrow bars is refused by BarcodeStyle (tested below): use scales 2-4 there.
            let scale = ratio < 2.5 ? 2 + (index / 3) % 3 : 1 + (index / 3) % 4
            cases.append(Case(text: text, ratio: ratio, scale: scale))
        }
        return cases
    }()

    @Test("Codabar decodes to exactly the normalized ID", arguments: cases)
    func codabar(_ testCase: Case) throws {
        let symbol = try CodabarSymbol(normalizing: testCase.text)
        #expect(symbol.text == testCase.text)
        let style = try BarcodeStyle(
            narrowBarWidth: testCase.scale, barHeight: 10, layout: try CodabarLayout(ratio: testCase.ratio))
        let png = try PNGCodec.encode(CodabarRaster.image(of: symbol, style: style))
        let decoded = ZBarReader(codabarMinimumLength: 3).decode(try PNGCodec.decodeGray(png))
        #expect(decoded.map(\.text) == [testCase.text])
        #expect(decoded.first?.symbology == .codabar)
    }

    @Test("the text line under the bars does not disturb decoding", arguments: [1, 2, 3])
    func codabarWithText(scale: Int) throws {
        let symbol = try CodabarSymbol(normalizing: "C12-345:678/9.0+$D")
        let image = CodabarRaster.image(
            of: symbol, style: try BarcodeStyle(narrowBarWidth: scale, showsText: true))
        let decoded = ZBarReader().decode(try PNGCodec.decodeGray(try PNGCodec.encode(image)))
        #expect(decoded.map(\.text) == [symbol.text])
    }

    @Test("QR decodes to exactly the normalized ID", arguments: cases.prefix(120))
    func qr(_ testCase: Case) throws {
        let symbol = try CodabarSymbol(normalizing: testCase.text)
        let qr = try QRSymbol(encoding: symbol.text)
        let png = try PNGCodec.encode(qr.image(moduleSize: testCase.scale + 1))
        let decoded = ZBarReader().decode(try PNGCodec.decodeGray(png))
        #expect(decoded.map(\.text) == [symbol.text])
        #expect(decoded.first?.symbology == .qr)
    }

    @Test("1 px narrow bars with 2 px wide bars are refused, saying why (what to do is the CLI's to say)")
    func ratioTwoAtScaleOne() throws {
        let layout = try CodabarLayout(ratio: 2.0)
        #expect(throws: SymbolError.ratioTooSmallForNarrowBars(ratio: 2.0)) {
            try BarcodeStyle(narrowBarWidth: 1, layout: layout)
        }
        #expect(
            SymbolError.ratioTooSmallForNarrowBars(ratio: 2.0).description
                == "a ratio of 2.0 at a scale of 1 gives 2-pixel wide bars that readers confuse with narrow ones"
        )
        _ = try BarcodeStyle(narrowBarWidth: 1, layout: try CodabarLayout(ratio: 2.5))
        _ = try BarcodeStyle(narrowBarWidth: 2, layout: layout)
    }

    @Test(
        "scale and height outside their ranges are refused",
        arguments: [(0, 50), (33, 50), (10000, 50), (2, 4), (2, 1001)])
    func ranges(scale: Int, height: Int) {
        #expect(throws: SymbolError.self) { try BarcodeStyle(narrowBarWidth: scale, barHeight: height) }
    }

    @Test("zbar's codabar.add-check accepts our check character and refuses a symbol without one")
    func checkCharacter() throws {
        let reader = ZBarReader(requiresCodabarCheckCharacter: true)
        var generator = SeededGenerator(seed: 16)
        for _ in 0..<40 {
            let digits = String(
                (0..<9).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let plain = try CodabarSymbol(normalizing: digits)
            let checked = try plain.addingCheckCharacter()
            let style = try BarcodeStyle()
            let checkedImage = try PNGCodec.decodeGray(
                try PNGCodec.encode(CodabarRaster.image(of: checked, style: style)))
            #expect(reader.decode(checkedImage).map(\.text) == [checked.text])
            if !plain.hasValidCheckCharacter {
                let plainImage = try PNGCodec.decodeGray(
                    try PNGCodec.encode(CodabarRaster.image(of: plain, style: style)))
                #expect(reader.decode(plainImage).isEmpty)
            }
        }
    }
}

@Suite("PNG size")
struct PNGSizeTests {
    /// zint 2.11 writes A123456789B at its default 224×116 (with text) in 248 bytes, 224×100 (without) in
    /// 131. gymcard's default symbol has more pixels (3:1 ratio, quiet zones), so compare bytes per pixel,
    /// and the text version also in absolute bytes.
    @Test(
        "a VT ID's PNG is no bigger than zint's at the same pixel size",
        arguments: [(false, 131), (true, 248)])
    func small(showsText: Bool, zintBytes: Int) throws {
        let symbol = try CodabarSymbol(normalizing: "123456789")
        let image = CodabarRaster.image(of: symbol, style: try BarcodeStyle(showsText: showsText))
        let png = try PNGCodec.encode(image)
        let zintPixels = 224 * (showsText ? 116 : 100)
        #expect(
            Double(png.count) / Double(image.width * image.height) <= Double(zintBytes) / Double(zintPixels))
        if showsText { #expect(png.count <= zintBytes) }
    }
}

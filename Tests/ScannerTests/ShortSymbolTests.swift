import Codabar
import Imaging
import Scanner
import Symbols
import TestSupport
import Testing

/// A card's ID of one character draws a Codabar symbol that no reader takes: the photo of it is sharp,
/// and the scan says the barcode is too short, not that the photo is blurred.
@Suite struct ShortSymbolTests {
    @Test func aOneCharacterCodabarSymbolIsCalledTooShortNotBlurred() async throws {
        let short = try photo(of: "7", canvas: 400)
        let report = await OffThePool.compute { BarcodeScanner().scan(short) }
        #expect(report.findings.isEmpty)
        #expect(report.diagnosis == .tooShort)
        #expect(
            report.diagnosis?.description.hasPrefix("the barcode is too short to read")
                == true)
        // As `show --png` writes it: quiet zones at the ends, bars to the top and bottom edge.
        let drawn = CodabarRaster.image(
            of: try CodabarSymbol(normalizing: "7"), style: try BarcodeStyle(narrowBarWidth: 2, barHeight: 50)
        ).grayImage
        #expect(await OffThePool.compute { BarcodeScanner().scan(drawn) }.diagnosis == .tooShort)
        // Two characters between the letters: read, as libzbar reads them.
        let two = try photo(of: "77", canvas: 400)
        #expect(await OffThePool.compute { BarcodeScanner().scan(two) }.findings.map(\.text) == ["A77B"])
    }
}

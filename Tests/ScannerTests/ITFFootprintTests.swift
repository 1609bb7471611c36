import Codabar
import Foundation
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

@testable import Scanner

/// Interleaved 2 of 5 has no check character a reader verifies, and its start and stop are a few narrow
/// elements that turn up inside any symbol: a scan line across a torn photo of a Codabar card read the
/// six digits `424787` as ITF (`Benchmarks/damaged.sh 100 9`, copy 47 of `card-rotated.jpg`; two gentle
/// stages agreed on one line each, and gymcard printed it with exit 0). Its reads are judged by the
/// footprint as Codabar's are.
@Suite("The footprint of an Interleaved 2 of 5 read")
struct ITFFootprintTests {
    /// An upright ITF symbol drawn by libzint, 3 px a module, on a white canvas.
    func drawing(_ digits: String) throws -> GrayImage {
        let matrix = try ModuleMatrix(encoding: try BarcodeContent(symbology: .itf, normalizing: digits))
        let row = matrix.pixelRow(moduleWidth: 3)
        var image = GrayImage(width: row.count + 200, height: 400)
        for y in 0..<image.height { for x in 0..<image.width { image[x, y] = 255 } }
        for y in 150..<250 { for (x, isDark) in row.enumerated() where isDark { image[x + 100, y] = 0 } }
        return image
    }

    /// The runs of a drawn row, first bar to last bar, as wide (more than one module) or narrow.
    func runs(_ digits: String) throws -> [CodabarElement] {
        let matrix = try ModuleMatrix(encoding: try BarcodeContent(symbology: .itf, normalizing: digits))
        var elements: [CodabarElement] = []
        var length = 0
        let row = Array(matrix.row(0))
        for (index, isDark) in row.enumerated() {
            length += 1
            if index + 1 == row.count || row[index + 1] != isDark {
                elements.append(CodabarElement(isBar: isDark, isWide: length > 1))
                length = 0
            }
        }
        return elements
    }

    @Test("its bars and spaces are libzint's, every digit in both places of a pair")
    func pattern() throws {
        for digits in ["0123456789", "9876543210", "00012345678905"] {
            let pattern = try #require(FootprintPattern(symbology: .itf, text: digits))
            #expect(pattern.elements == (try runs(digits)), "\(digits)")
            #expect(pattern.groups.count == 2 + digits.count / 2)
            #expect(pattern.reversed.reversed == pattern)
        }
        #expect(FootprintPattern(symbology: .itf, text: "12345") == nil)
        #expect(FootprintPattern(symbology: .itf, text: "12a4") == nil)
        #expect(FootprintPattern(symbology: .code128, text: "1234") == nil)
    }

    @Test("a read of the whole symbol stands; a shorter or other text along the same lines does not")
    func whole() throws {
        let image = try drawing("00123456")
        let symbol = try #require(ZBarReader().decode(image).first)
        #expect(symbol.symbology == .itf && symbol.text == "00123456")
        #expect(
            SymbolFootprint.accountsForWholeSymbol(
                .itf, text: symbol.text, lineEnds: symbol.lineEnds, in: image))
        for other in ["001234", "00123465", "0012345600"] {
            #expect(
                !SymbolFootprint.accountsForWholeSymbol(
                    .itf, text: other, lineEnds: symbol.lineEnds, in: image),
                "\(other)")
        }
        // Turned around: the lines run the other way.
        let turned = image.rotated(degrees: 180)
        let read = try #require(ZBarReader().decode(turned).first)
        #expect(
            SymbolFootprint.accountsForWholeSymbol(.itf, text: read.text, lineEnds: read.lineEnds, in: turned)
        )
    }

    @Test("a torn photo of a Codabar card gives no ITF ID")
    func tornCodabar() async throws {
        let path = GymcardProcess.packageRoot.appendingPathComponent("samples/card-rotated.jpg").path
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The five bytes Benchmarks/damaged.sh changed in copy 47 of seed 9 (offset: new value).
        for (offset, value) in [46295: 211, 83595: 101, 248836: 60, 249669: 200, 300448: 237] as [Int: UInt8]
        {
            bytes[offset] = value
        }
        let copy = bytes
        let texts = await OffThePool.compute { () -> [String] in
            guard let image = try? ImageFile.decodeGray(copy, minimumLongSide: BarcodeScanner.decodeSide)
            else { return ["undecodable"] }
            return BarcodeScanner().scan(image).findings.map(\.text)
        }
        #expect(texts.allSatisfy { $0 == "C12-345:678/90D" }, "\(texts)")
    }
}

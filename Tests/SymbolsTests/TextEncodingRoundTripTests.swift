import Foundation
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

/// 2D symbols holding text beyond ASCII, in every encoding a card may name: zxing-cpp from PyPI reads the
/// exact text and the ECI gymcard meant (26 for UTF-8, 3 for Latin-1 beyond ASCII, none for ASCII), and
/// zbarimg reads the QR codes' exact text (ARCHITECTURE §13, "Text encoding").
@Suite("Text encoding: 2D symbols read back exactly, with their ECI, by zxing-cpp and zbarimg")
struct TextEncodingRoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var symbology: Symbology
        var text: String
        var named: TextEncoding?
        var testDescription: String { "\(symbology.name) \(named?.rawValue ?? "none") \(text)" }
    }

    /// Characters of one class each: ASCII, Latin-1 beyond ASCII, Latin-1 pairs whose bytes are valid
    /// UTF-8 (`Ã©`), the Basic Multilingual Plane beyond Latin-1, and beyond it (4-byte UTF-8).
    static let classes: [[Unicode.Scalar]] = [
        (0x20...0x7E).compactMap(Unicode.Scalar.init),
        (0xA0...0xFF).compactMap(Unicode.Scalar.init),
        [],
        Array("€ŁŒΩДЖ中文한글ｶ".unicodeScalars),
        Array("😀🎫𝄞".unicodeScalars),
    ]

    /// Six texts of 1 to 24 characters per class, each mixed with ASCII, from a fixed seed.
    static let texts: [(text: String, latin1: Bool)] = {
        var generator = SeededGenerator(seed: 38)
        var texts: [(String, Bool)] = []
        for (index, characters) in classes.enumerated() {
            for _ in 0..<6 {
                var scalars = String.UnicodeScalarView()
                let count = Int.random(in: 1...24, using: &generator)
                while scalars.count < count {
                    if index == 2 {
                        // A lead byte C2-DF and a continuation byte A0-BF: two Latin-1 characters, one UTF-8.
                        scalars.append(Unicode.Scalar(UInt8.random(in: 0xC2...0xDF, using: &generator)))
                        scalars.append(Unicode.Scalar(UInt8.random(in: 0xA0...0xBF, using: &generator)))
                    } else if index > 0, Bool.random(using: &generator) {
                        scalars.append(classes[0].randomElement(using: &generator) ?? "x")
                    } else {
                        scalars.append(characters.randomElement(using: &generator) ?? "x")
                    }
                }
                // Leading and trailing white space is not part of a card's text.
                let text = String(scalars).trimmingCharacters(in: .whitespaces)
                texts.append((text.isEmpty ? "x" : text, index < 3))
            }
        }
        return texts
    }()

    static let cases: [Case] = Symbology.allCases.filter(\.isTwoDimensional).flatMap { symbology in
        texts.flatMap { text, latin1 in
            (latin1 ? [nil, .isoLatin1, .utf8] : [nil, .utf8] as [TextEncoding?]).map {
                Case(symbology: symbology, text: text, named: $0)
            }
        }
    }

    @Test(
        "every class of character, in every encoding, reads back exactly with the ECI meant",
        .enabled(if: Prerequisite.runs(IndependentReaders.hasZXingCpp && IndependentReaders.hasZbarimg)))
    func readsBack() async throws {
        let directory = try TemporaryDirectory()
        var paths: [String] = []
        var contents: [BarcodeContent] = []
        for (index, testCase) in Self.cases.enumerated() {
            let content = try BarcodeContent(
                symbology: testCase.symbology, normalizing: testCase.text, encoding: testCase.named)
            let image = MatrixRaster.image(
                of: try ModuleMatrix(encoding: content), style: try BarcodeStyle(narrowBarWidth: 3))
            let path = directory.path + "/\(index).png"
            try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            contents.append(content)
        }
        #expect(paths.count >= 300, "a property over the space, not an example")
        let reads = try await IndependentReaders.zxingCpp(paths)
        for (index, content) in contents.enumerated() {
            let testCase = Self.cases[index]
            let expectedECI: Int? =
                content.encoding == .utf8 ? 26 : (content.text.unicodeScalars.allSatisfy(\.isASCII) ? nil : 3)
            let found = reads[paths[index]] ?? []
            #expect(found.map(\.text) == [content.text], "zxing-cpp: \(testCase)")
            #expect(found.map(\.eci) == [expectedECI], "the ECI of \(testCase)")
            #expect(found.map(\.bytes) == [content.bytes], "the bytes of \(testCase)")
            if testCase.symbology == .qr {
                let zbar = try await IndependentReaders.zbarimg(paths[index])
                #expect(zbar == [content.text], "zbarimg: \(testCase)")
            }
        }
    }

    @Test(
        "the companion QR code (libqrencode) of a text beyond ASCII reads back exactly, with ECI 26",
        .enabled(if: Prerequisite.runs(IndependentReaders.hasZXingCpp && IndependentReaders.hasZbarimg)),
        arguments: ["Käseschnitte", "Äb", "€uro 健身", "Ã©"])
    func companionQR(text: String) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/companion.png"
        try Data(try PNGCodec.encode(try QRSymbol(encoding: text).image(moduleSize: 4)))
            .write(to: URL(fileURLWithPath: path))
        let read = try await IndependentReaders.zxingCpp([path])[path] ?? []
        #expect(read.map(\.text) == [text] && read.map(\.eci) == [26])
        #expect(try await IndependentReaders.zbarimg(path) == [text])
    }

    @Test("a UTF-8 card in every 2D symbology, including Catima's own Käseschnitte, is drawn with ECI 26")
    func catimasCheese() throws {
        for symbology in Symbology.allCases where symbology.isTwoDimensional {
            let content = try BarcodeContent(
                symbology: symbology, normalizing: "Käseschnitte", encoding: .utf8)
            #expect(content.eciDesignator == 26)
            #expect(content.bytes == Array("Käseschnitte".utf8))
            #expect(throws: Never.self) { try ModuleMatrix(encoding: content) }
        }
    }
}

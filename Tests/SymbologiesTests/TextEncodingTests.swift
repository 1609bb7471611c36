import Symbologies
import Testing

/// The text encoding a 2D card keeps (Catima's `barcodeencoding`), the bytes it draws and the ECI it draws
/// them with.
@Suite("Text encoding: Catima's barcodeencoding, the bytes drawn and their ECI")
struct TextEncodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var named: TextEncoding?
        var encoding: TextEncoding?
        var bytes: [UInt8]
        var eci: Int?
        var testDescription: String { "\(text) named \(named?.rawValue ?? "none")" }
    }

    static let cases: [Case] = [
        Case(text: "GYM 0042", named: nil, encoding: nil, bytes: Array("GYM 0042".utf8), eci: nil),
        Case(text: "GYM 0042", named: .utf8, encoding: .utf8, bytes: Array("GYM 0042".utf8), eci: 26),
        Case(
            text: "GYM 0042", named: .isoLatin1, encoding: .isoLatin1, bytes: Array("GYM 0042".utf8), eci: nil
        ),
        // Latin-1 beyond ASCII: ECI 3, or readers guess another charset.
        Case(text: "Äb", named: nil, encoding: nil, bytes: [0xC4, 0x62], eci: 3),
        Case(text: "Äb", named: .isoLatin1, encoding: .isoLatin1, bytes: [0xC4, 0x62], eci: 3),
        Case(text: "Äb", named: .utf8, encoding: .utf8, bytes: [0xC3, 0x84, 0x62], eci: 26),
        // Latin-1 bytes C3 A9 spell é in UTF-8.
        Case(text: "Ã©", named: nil, encoding: nil, bytes: [0xC3, 0xA9], eci: 3),
        Case(text: "Ã©", named: .isoLatin1, encoding: .isoLatin1, bytes: [0xC3, 0xA9], eci: 3),
        // Beyond Latin-1 without an encoding named: UTF-8.
        Case(text: "€uro", named: nil, encoding: .utf8, bytes: Array("€uro".utf8), eci: 26),
        Case(text: "Käseschnitte", named: .utf8, encoding: .utf8, bytes: Array("Käseschnitte".utf8), eci: 26),
    ]

    @Test("the encoding kept, the bytes and the ECI, in every 2D symbology", arguments: cases)
    func drawn(_ example: Case) throws {
        for symbology in Symbology.allCases where symbology.isTwoDimensional {
            let content = try BarcodeContent(
                symbology: symbology, normalizing: example.text, encoding: example.named)
            #expect(content.text == example.text)
            #expect(content.encoding == example.encoding)
            #expect(content.bytes == example.bytes)
            #expect(content.eciDesignator == example.eci)
        }
    }

    @Test("without an encoding named, the old initializer is the same card")
    func defaultIsNone() throws {
        for text in ["GYM 0042", "Äb", "中"] {
            #expect(
                try BarcodeContent(symbology: .qr, normalizing: text)
                    == BarcodeContent(symbology: .qr, normalizing: text, encoding: nil))
        }
    }

    @Test("linear symbologies keep no encoding and draw no ECI", arguments: [TextEncoding.utf8, .isoLatin1])
    func linear(_ named: TextEncoding) throws {
        let content = try BarcodeContent(symbology: .code128, normalizing: "GYM42", encoding: named)
        #expect(content.encoding == nil)
        #expect(content.eciDesignator == nil)
        #expect(content.bytes == Array("GYM42".utf8))
    }

    @Test(
        "a text beyond Latin-1 that names ISO-8859-1 is refused with its character and position, not the ID")
    func refusesBeyondLatin1() {
        #expect(
            throws: SymbologyError.notInEncoding("€", position: 3, encoding: .isoLatin1, symbology: .aztec)
        ) {
            try BarcodeContent(symbology: .aztec, normalizing: "ab€cd", encoding: .isoLatin1)
        }
        let message = SymbologyError.notInEncoding("€", position: 3, encoding: .isoLatin1, symbology: .aztec)
            .description
        #expect(message.contains("'€' at position 3"))
        #expect(message.contains("ISO-8859-1"))
        #expect(!message.contains("ab€cd"))
    }

    @Test(
        "Catima's names: Java's canonical names and aliases, any case; others are not drawn",
        arguments: [
            ("UTF-8", TextEncoding.utf8), ("utf8", .utf8), ("ISO-8859-1", .isoLatin1), ("latin1", .isoLatin1),
            ("ISO8859_1", .isoLatin1), ("iso-8859-1", .isoLatin1),
        ])
    func catimaNames(name: String, encoding: TextEncoding) {
        #expect(TextEncoding(catimaName: name) == encoding)
        #expect(TextEncoding(catimaName: encoding.catimaName) == encoding)
    }

    @Test("encodings gymcard does not draw", arguments: ["UTF-16", "US-ASCII", "windows-1252", "", "UTF-9"])
    func otherNames(name: String) {
        #expect(TextEncoding(catimaName: name) == nil)
    }
}

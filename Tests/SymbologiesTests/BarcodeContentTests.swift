import Codabar
import Symbologies
import Testing

@Suite("What each symbology accepts, and how a refusal is worded")
struct BarcodeContentTests {
    struct Accepted: Sendable, CustomTestStringConvertible {
        var symbology: Symbology
        var input: String
        var text: String
        var testDescription: String { "\(symbology.name) \(input)" }
    }

    /// Check digits from GS1's own examples and from printed packs (EAN-13 5901234123457 is GS1's example,
    /// UPC-A 036000291452 and UPC-E 01234565 / its UPC-A 012345000065 are the classic references).
    static let accepted: [Accepted] = [
        Accepted(symbology: .ean13, input: "590123412345", text: "5901234123457"),
        Accepted(symbology: .ean13, input: " 5901234123457 ", text: "5901234123457"),
        Accepted(symbology: .ean13, input: "400638133393", text: "4006381333931"),
        Accepted(symbology: .ean8, input: "9638507", text: "96385074"),
        Accepted(symbology: .ean8, input: "96385074", text: "96385074"),
        Accepted(symbology: .upca, input: "03600029145", text: "036000291452"),
        Accepted(symbology: .upca, input: "036000291452", text: "036000291452"),
        Accepted(symbology: .upce, input: "123456", text: "01234565"),
        Accepted(symbology: .upce, input: "0123456", text: "01234565"),
        Accepted(symbology: .upce, input: "01234565", text: "01234565"),
        Accepted(symbology: .upce, input: "1123456", text: "11234562"),
        Accepted(symbology: .code39, input: "abc-12 $/+%.", text: "ABC-12 $/+%."),
        Accepted(symbology: .code128, input: "Gym#42~ {x}", text: "Gym#42~ {x}"),
        Accepted(symbology: .code93, input: "a!b", text: "a!b"),
        Accepted(symbology: .itf, input: "00012345678905", text: "00012345678905"),
        Accepted(
            symbology: .qr, input: "https://gym.example/m?id=42&x=é", text: "https://gym.example/m?id=42&x=é"),
        Accepted(symbology: .codabar, input: "9051-23456", text: "A905123456B"),
        Accepted(symbology: .codabar, input: "c12:3d", text: "C12:3D"),
    ]

    @Test("an ID is normalized to the text a reader decodes", arguments: accepted)
    func normalizes(_ example: Accepted) throws {
        let content = try BarcodeContent(symbology: example.symbology, normalizing: example.input)
        #expect(content.text == example.text)
        #expect(content.symbology == example.symbology)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var symbology: Symbology
        var input: String
        var error: SymbologyError
        var words: [String]
        var testDescription: String { "\(symbology.name) \(input)" }
    }

    static let refused: [Refused] = [
        Refused(
            symbology: .ean13, input: "59012341234A",
            error: .invalidCharacter("A", position: 12, symbology: .ean13),
            words: ["'A' at position 12", "EAN-13", "12 digits, or 13 with the check digit"]),
        Refused(
            symbology: .ean13, input: "5901234123458",
            error: .wrongCheckDigit("8", position: 13, expected: "7", symbology: .ean13),
            words: ["'8' at position 13", "check digit", "that is 7"]),
        Refused(
            symbology: .ean13, input: "59012341234", error: .wrongLength(length: 11, symbology: .ean13),
            words: ["11 digits", "EAN-13 takes 12 digits"]),
        Refused(
            symbology: .ean8, input: "96385075",
            error: .wrongCheckDigit("5", position: 8, expected: "4", symbology: .ean8),
            words: ["'5' at position 8", "that is 4"]),
        Refused(
            symbology: .upca, input: "036000291453",
            error: .wrongCheckDigit("3", position: 12, expected: "2", symbology: .upca),
            words: ["'3' at position 12", "UPC-A"]),
        Refused(
            symbology: .upce, input: "01234564",
            error: .wrongCheckDigit("4", position: 8, expected: "5", symbology: .upce),
            words: ["'4' at position 8", "that is 5"]),
        Refused(
            symbology: .upce, input: "2123456", error: .upcENumberSystem("2"),
            words: ["'2' at position 1", "number system is 0 or 1"]),
        Refused(
            symbology: .itf, input: "12345", error: .wrongLength(length: 5, symbology: .itf),
            words: ["5 digits", "an even number"]),
        Refused(
            symbology: .itf, input: "12 34", error: .invalidCharacter(" ", position: 3, symbology: .itf),
            words: ["a space at position 3", "digits, an even number of them"]),
        Refused(
            symbology: .code39, input: "AB_12",
            error: .invalidCharacter("_", position: 3, symbology: .code39),
            words: ["'_' at position 3", "Code 39", "capital letters A-Z, space and - . $ / + %"]),
        Refused(
            symbology: .code128, input: "Gym\u{7}1",
            error: .invalidCharacter("\u{7}", position: 4, symbology: .code128),
            words: ["U+7 at position 4", "printable ASCII"]),
        Refused(
            symbology: .code128, input: "Gymé",
            error: .invalidCharacter("é", position: 4, symbology: .code128),
            words: ["'é' at position 4", "Code 128"]),
        Refused(
            symbology: .code128, input: String(repeating: "7", count: 61),
            error: .tooLong(length: 61, maximum: 60, symbology: .code128),
            words: ["61 characters", "up to 60"]),
        Refused(
            symbology: .qr, input: "a\nb", error: .invalidCharacter("\n", position: 2, symbology: .qr),
            words: ["U+A at position 2", "without control characters"]),
        Refused(
            symbology: .codabar, input: "A12x4B",
            error: .codabar(.invalidCharacter("x", position: 4)), words: ["'x' at position 4", "Codabar"]),
        Refused(symbology: .aztec, input: "   ", error: .empty(.aztec), words: ["empty", "Aztec Code"]),
        // GS1's zero suppression, as zint checks it (its errors 271, 272 and 273).
        Refused(
            symbology: .upce, input: "700363",
            error: .notUPCE(digit: "third", needs: "3 to 9 when the sixth is 3"),
            words: ["no UPC-E", "third of its six digits", "as UPC-A"]),
        Refused(
            symbology: .upce, input: "0600004",
            error: .notUPCE(digit: "fourth", needs: "1 to 9 when the sixth is 4"),
            words: ["fourth", "sixth is 4"]),
        Refused(
            symbology: .upce, input: "402906",
            error: .notUPCE(digit: "fifth", needs: "1 to 9 when the sixth is 5 to 9"), words: ["fifth"]),
        // Code 93 writes lower case as two symbol characters: 54 of them are 108, one over zint's 107.
        Refused(
            symbology: .code93, input: String(repeating: "a", count: 54),
            error: .tooLongExpanded(symbolCharacters: 108, maximum: 107, symbology: .code93),
            words: ["108 symbol characters", "up to 107", "lower-case letters"]),
    ]

    @Test(
        "an EAN-13 that begins with 0 is the UPC-A of its other twelve digits, with or without its check digit",
        arguments: ["0036000291452", "003600029145", " 0036000291452"])
    func ean13WithALeadingZero(_ input: String) throws {
        let content = try BarcodeContent(symbology: .ean13, normalizing: input)
        #expect(content.symbology == .upca)
        #expect(content.text == "036000291452")
        #expect(BarcodeContent(read: .ean13, text: "0036000291452") == content)
        #expect(BarcodeContent(read: .upca, text: "036000291452") == content)
    }

    @Test(
        "an ID the symbology cannot carry is refused with the character and its position", arguments: refused)
    func refuses(_ example: Refused) {
        #expect(throws: example.error) {
            try BarcodeContent(symbology: example.symbology, normalizing: example.input)
        }
        for word in example.words { #expect(example.error.description.contains(word)) }
    }

    @Test("a refusal never quotes the whole ID")
    func noLeak() {
        let secret = "SECRET-12345-é"
        do {
            _ = try BarcodeContent(symbology: .code39, normalizing: secret)
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("SECRET"))
        }
    }

    @Test("names: command line, Catima and both decoders, one per symbology")
    func names() {
        #expect(
            Symbology.allCases.map(\.name) == [
                "codabar", "code39", "code93", "code128", "itf", "ean8", "ean13", "upca", "upce", "qr",
                "pdf417",
                "datamatrix", "aztec",
            ])
        #expect(
            Symbology.allCases.map(\.catimaName) == [
                "CODABAR", "CODE_39", "CODE_93", "CODE_128", "ITF", "EAN_8", "EAN_13", "UPC_A", "UPC_E",
                "QR_CODE",
                "PDF_417", "DATA_MATRIX", "AZTEC",
            ])
        for symbology in Symbology.allCases {
            #expect(Symbology(catimaName: symbology.catimaName) == symbology)
            #expect(Symbology(name: symbology.name.uppercased()) == symbology)
        }
        #expect(Symbology(catimaName: "MAXICODE") == nil)
        #expect(Set(Symbology.allCases.map(\.zxingName)).count == 13)
    }
}

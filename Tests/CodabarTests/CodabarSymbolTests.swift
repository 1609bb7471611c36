import Codabar
import Testing

@Suite("Normalizing and validating IDs")
struct CodabarSymbolTests {
    @Test(
        "normalization follows ARCHITECTURE §4",
        arguments: [
            ("123456789", "A123456789B"),
            ("1234-56789", "A123456789B"),
            ("1234 56789", "A123456789B"),
            ("  905123456\n", "A905123456B"),
            ("a37859b", "A37859B"),
            ("C12-345-678D", "C12-345-678D"),
            ("12345", "A12345B"),
            ("B123", "B123B"),
            ("123D", "A123D"),
            ("5", "A5B"),
            ("$1.50", "A$1.50B"),
            ("12:30/45+", "A12:30/45+B"),
            ("12345678", "A12345678B"),
            ("1234567890", "A1234567890B"),
        ])
    func normalizes(input: String, expected: String) throws {
        #expect(try CodabarSymbol(normalizing: input).text == expected)
    }

    @Test("a Virginia Tech ID is shown as dddd-ddddd")
    func virginiaTechDisplay() throws {
        let symbol = try CodabarSymbol(normalizing: "905123456")
        #expect(symbol.isVirginiaTechID)
        #expect(symbol.displayText == "9051-23456")
        let other = try CodabarSymbol(normalizing: "C905123456D")
        #expect(!other.isVirginiaTechID)
        #expect(other.displayText == "C905123456D")
    }

    @Test(
        "invalid input names the character and its 1-based position",
        arguments: [
            ("", CodabarError.empty),
            ("   ", .empty),
            ("AB", .noData),
            ("A", .noData),
            ("12x4", .invalidCharacter("x", position: 3)),
            ("12 34", .invalidCharacter(" ", position: 3)),
            ("12A34", .startStopInData("A", position: 3)),
            ("A12C34B", .startStopInData("C", position: 4)),
            ("T1234N", .invalidCharacter("T", position: 1)),
            ("12*4", .invalidCharacter("*", position: 3)),
            ("1234€", .invalidCharacter("€", position: 5)) as (String, CodabarError),
        ])
    func refuses(input: String, expected: CodabarError) {
        #expect(throws: expected) { try CodabarSymbol(normalizing: input) }
    }

    @Test("a hyphen is ordinary data outside the 4+5 VT form")
    func hyphenOutsideVirginiaTechForm() throws {
        #expect(try CodabarSymbol(normalizing: "12-34").text == "A12-34B")
    }

    @Test("the message quotes the character, never the whole input")
    func messageDoesNotLeakTheID() {
        do {
            _ = try CodabarSymbol(normalizing: "9051234X6")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("'X' at position 8"))
            #expect(!error.description.contains("905123"))
        }
    }

    @Test("T N * E get a hint to write A-D")
    func aliasHint() {
        #expect(CodabarError.invalidCharacter("N", position: 6).description.contains("write B instead"))
    }

    @Test("length is capped at 60 characters, start and stop included")
    func lengthCap() throws {
        let fits = String(repeating: "1", count: 58)
        #expect(try CodabarSymbol(normalizing: fits).characters.count == 60)
        #expect(throws: CodabarError.tooLong(length: 61, maximum: 60)) {
            try CodabarSymbol(normalizing: fits + "1")
        }
        #expect(throws: CodabarError.tooLong(length: 61, maximum: 60)) {
            try CodabarSymbol(normalizing: fits).addingCheckCharacter()
        }
    }
}

@Suite("The mod-16 check character")
struct CodabarCheckCharacterTests {
    @Test("A37859B gains + before the stop")
    func specExample() throws {
        let checked = try CodabarSymbol(normalizing: "A37859B").addingCheckCharacter()
        #expect(checked.text == "A37859+B")
        #expect(checked.hasValidCheckCharacter)
    }

    @Test("every single-character change breaks the check", arguments: 0..<16)
    func detectsSubstitution(replacement: Int) throws {
        let checked = try CodabarSymbol(normalizing: "905123456").addingCheckCharacter()
        #expect(checked.hasValidCheckCharacter)
        var data = Array(checked.data)
        let original = data[3]
        guard let substitute = CodabarCharacter(checkValue: replacement), substitute != original else {
            return
        }
        data[3] = substitute
        let tampered = try CodabarSymbol(start: .a, data: data, stop: .b)
        #expect(!tampered.hasValidCheckCharacter)
    }
}

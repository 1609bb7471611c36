import Testing
import TextSearch

@Suite("Case-insensitive search without Foundation")
struct TextSearchTests {
    @Test("finds ASCII letters in any case, after multi-byte text, from a given index")
    func search() throws {
        let text = "Café – Max Occupancy: 12, max occupancy: 13"
        let first = try #require(text.range(ignoringCaseOf: "MAX OCCUPANCY"))
        #expect(text[first] == "Max Occupancy")
        let second = try #require(text.range(ignoringCaseOf: "max occupancy", from: first.upperBound))
        #expect(text[second] == "max occupancy")
        #expect(text.range(ignoringCaseOf: "max occupancy", from: second.upperBound) == nil)
        #expect(text.range(ignoringCaseOf: "") == nil)
        #expect(text.range(ignoringCaseOf: "13") == text.index(text.endIndex, offsetBy: -2)..<text.endIndex)
        #expect("ab".range(ignoringCaseOf: "abc") == nil)
    }

    @Test("a Substring answers with indices into its base")
    func substring() throws {
        let page = "<p>one</p><P>TWO</P>"
        let tail = page[page.index(page.startIndex, offsetBy: 10)...]
        let found = try #require(tail.range(ignoringCaseOf: "two"))
        #expect(page[found] == "TWO")
        #expect(tail.range(ignoringCaseOf: "one") == nil)
    }

    @Test("non-ASCII letters are compared as they are")
    func nonASCII() {
        #expect("ÉCOLE".range(ignoringCaseOf: "école") == nil)
        #expect("école".range(ignoringCaseOf: "école") != nil)
    }

    @Test("trimmed removes white space at both ends, no-break spaces too")
    func trimmed() {
        #expect("\u{A0} a b \n".trimmed == "a b")
        #expect("  ".trimmed.isEmpty)
    }
}

import Testing

@testable import TerminalText

@Suite("terminalSafe: text from outside shown, never obeyed, by the terminal")
struct TerminalSafeTextTests {
    @Test(
        "each control character becomes a visible escape",
        arguments: [
            ("plain text", "plain text"),
            ("", ""),
            ("Café · 58% — 北京", "Café · 58% — 北京"),
            ("evil\u{1B}[31mRED", "evil\\e[31mRED"),
            ("\u{1B}]0;title\u{07}", "\\e]0;title\\a"),
            ("two\nlines", "two\\nlines"),
            ("crlf\r\n", "crlf\\r\\n"),
            ("tab\there", "tab\\there"),
            ("back\u{08}space", "back\\bspace"),
            ("\u{0B}\u{0C}", "\\v\\f"),
            ("nul\u{00}", "nul\\x00"),
            ("\u{01}\u{1F}", "\\x01\\x1F"),
            ("del\u{7F}", "del\\x7F"),
            ("c1 csi\u{9B}31m", "c1 csi\\u{009B}31m"),
            ("\u{80}\u{85}\u{9F}", "\\u{0080}\\u{0085}\\u{009F}"),
            ("\u{A0}no-break", "\u{A0}no-break"),
            ("gpj.\u{202E}exe", "gpj.\\u{202E}exe"),
            ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}"),
            ("\u{2066}\u{2067}\u{2068}\u{2069}", "\\u{2066}\\u{2067}\\u{2068}\\u{2069}"),
            ("\u{200E}mark", "\u{200E}mark"),
            ("line\u{2028}para\u{2029}", "line\\u{2028}para\\u{2029}"),
            ("C:\\cards\\gym.age", "C:\\cards\\gym.age"),
            ("e\u{301}\u{1B}", "e\u{301}\\e"),
        ])
    func escapes(input: String, expected: String) {
        #expect(input.terminalSafe == expected)
    }

    @Test("the result holds no control character and no line break, and a second pass changes nothing")
    func oneLineAndIdempotent() {
        let every = String(String.UnicodeScalarView((0..<0x2100).compactMap(Unicode.Scalar.init)))
        let safe = every.terminalSafe
        #expect(!safe.unicodeScalars.contains { needsEscape($0) })
        #expect(!safe.contains("\n"))
        #expect(safe.terminalSafe == safe)
    }

    @Test("a substring is made safe too")
    func substring() {
        let text = "label: a\u{1B}b"
        #expect(text.dropFirst(7).terminalSafe == "a\\eb")
    }
}

@Suite struct TextTableTests {
    @Test func columnsArePaddedToTheWidestCellAndCellsMadeSafe() {
        let text = TextTable.text(
            header: ["KEY", "NAME"], rows: [["gym", "Fitness\u{1B}[31m Center"], ["a-long-key", ""]])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines.first == "KEY         NAME")
        #expect(lines.last == "a-long-key")
        #expect(lines[1].hasPrefix("gym         Fitness") && !text.contains("\u{1B}"))
    }
}

import TerminalText
import Testing

@Suite("Wrapping a line to the terminal's width")
struct LineWrappingTests {
    @Test("a line that fits, or no width, stays as it is")
    func fits() {
        #expect("  Mon, Nov 23  6:00 AM".wrapped(columns: 40) == ["  Mon, Nov 23  6:00 AM"])
        #expect(String(repeating: "word ", count: 30).wrapped(columns: nil).count == 1)
    }

    @Test("breaks at spaces, keeps aligned runs of spaces, indents what follows")
    func breaksAtSpaces() {
        let line = "  Today at 9:00 AM – 10:30 AM  usually 10%  quiet"
        let lines = line.wrapped(columns: 32, indent: 4)
        #expect(lines == ["  Today at 9:00 AM – 10:30 AM", "    usually 10%  quiet"])
    }

    @Test("a word longer than the line is cut; escape sequences take no columns")
    func cutsAndEscapes() {
        #expect("abcdefghij klm".wrapped(columns: 4) == ["abcd", "efgh", "ij", "klm"])
        let bold = "\u{1B}[1mMcComas\u{1B}[0m Hall is open"
        #expect(bold.visibleWidth == 20)
        #expect(bold.wrapped(columns: 20) == [bold])
        #expect(bold.wrapped(columns: 12) == ["\u{1B}[1mMcComas\u{1B}[0m Hall", "is open"])
    }

    @Test("lines wrap under their own indentation")
    func arrayIndents() {
        #expect(
            ["heading", "  a long line of several words"].wrapped(columns: 16, indent: 2) == [
                "heading", "  a long line of", "    several", "    words",
            ])
    }
}

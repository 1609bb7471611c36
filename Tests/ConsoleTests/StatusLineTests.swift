import Testing

@testable import Console

@Suite("wait's status line fits the terminal and keeps the next check")
struct StatusLineTests {
    static let line =
        "McComas Hall 41% (246/600) · waiting for below 30% · held 3 of 10 min · next check in 1:45"

    @Test(
        "the parts between the value and the next check go first, in order; then the value is cut",
        arguments: [
            (100, line),
            (80, "McComas Hall 41% (246/600) · held 3 of 10 min · next check in 1:45"),
            (60, "McComas Hall 41% (246/600) · next check in 1:45"),
            (40, "McComas Hall 41%… · next check in 1:45"),
            (10, "McComas Hall 41% (246/600) · held 3 of 10 min · next check in 1:45"),
        ])
    func fitted(columns: Int, expected: String) {
        let fitted = StatusLine.clipped(Self.line, columns: columns)
        #expect(fitted == expected)
        #expect(fitted.count < (columns < 20 ? 80 : columns))
    }

    @Test("one part too long is cut at the end")
    func onePart() {
        #expect(
            StatusLine.clipped(String(repeating: "x", count: 50), columns: 30) == String(
                repeating: "x", count: 28) + "…")
    }
}

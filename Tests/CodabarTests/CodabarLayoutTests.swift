import Codabar
import Testing

@Suite("Element patterns and widths")
struct CodabarLayoutTests {
    /// ARCHITECTURE §4's table for `0123456789-$:/.+ABCD`, 1 = wide.
    static let patternTable: [(Character, String)] = Array(
        zip(
            "0123456789-$:/.+ABCD",
            [
                "0000011", "0000110", "0001001", "1100000", "0010010", "1000010", "0100001", "0100100",
                "0110000", "1001000", "0001100", "0011000", "1000101", "1010001", "1010100", "0010101",
                "0011010", "0101001", "0001011", "0001110",
            ]))

    @Test("each of the 20 characters has the pattern in ARCHITECTURE §4", arguments: patternTable)
    func pattern(character: Character, expected: String) throws {
        let ascii = try #require(character.asciiValue)
        let codabar = try #require(CodabarCharacter(ascii: ascii))
        #expect(codabar.symbol == character)
        #expect(String(codabar.widePattern.map { $0 ? "1" : "0" }) == expected)
        let wideBars = codabar.widePattern.enumerated().filter { $0.offset % 2 == 0 && $0.element }.count
        let wideSpaces = codabar.widePattern.enumerated().filter { $0.offset % 2 == 1 && $0.element }.count
        switch character {
        case "0"..."9", "-", "$": #expect(wideBars == 1 && wideSpaces == 1)
        case ":", "/", ".", "+": #expect(wideBars == 3 && wideSpaces == 0)
        default: #expect(wideBars == 1 && wideSpaces == 2)
        }
    }

    @Test("at ratio 2, A123456B is the 81-module row of ARCHITECTURE §4")
    func designRow() throws {
        let layout = try CodabarLayout(ratio: 2)
        let row = layout.row(
            of: try CodabarSymbol(normalizing: "A123456B"), narrowWidth: 1, includingQuietZones: false)
        let expected = "101100100101010110010101001011011001010101011010010110101001010010101101001001011"
        #expect(String(row.map { $0 ? "1" : "0" }) == expected)
    }

    @Test("quiet zones are ten narrow widths of light on each side", arguments: [1, 3])
    func quietZone(narrowWidth: Int) throws {
        let layout = try CodabarLayout()
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let row = layout.row(of: symbol, narrowWidth: narrowWidth)
        let bare = layout.row(of: symbol, narrowWidth: narrowWidth, includingQuietZones: false)
        #expect(row.count == bare.count + 20 * narrowWidth)
        #expect(row.prefix(10 * narrowWidth).allSatisfy { !$0 })
        #expect(row.suffix(10 * narrowWidth).allSatisfy { !$0 })
        #expect(bare.first == true && bare.last == true)
    }

    @Test("vector widths carry the exact ratio", arguments: [2.0, 2.5, 3.0])
    func vectorWidths(ratio: Double) throws {
        let widths = try CodabarLayout(ratio: ratio).elementWidths(of: try CodabarSymbol(normalizing: "A1B"))
        #expect(widths.first == 10 && widths.last == 10)
        #expect(Set(widths.dropFirst().dropLast()) == [1, ratio])
        // 3 characters: 21 elements + 2 gaps, between the two quiet zones.
        #expect(widths.count == 23 + 2)
    }

    @Test("ratios outside 2.0-3.0 are refused", arguments: [1.9, 3.1, 0, -2])
    func ratioRange(ratio: Double) {
        #expect(throws: CodabarError.ratioOutOfRange(ratio)) { try CodabarLayout(ratio: ratio) }
    }
}

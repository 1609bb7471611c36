/// One of the 20 characters a Codabar symbol can hold: 16 data characters and the 4 start/stop letters.
public enum CodabarCharacter: UInt8, CaseIterable, Sendable, Hashable {
    case zero, one, two, three, four, five, six, seven, eight, nine
    case minus, dollar, colon, slash, period, plus
    case a, b, c, d

    /// The character's value in the mod-16 check (0–9 digits, `- $ : / . +` 10–15, `A–D` 16–19).
    public var checkValue: Int { Int(rawValue) }

    /// The ASCII character as printed under the bars and reported by decoders.
    public var symbol: Character { Character(Unicode.Scalar(Self.alphabet[Int(rawValue)])) }

    /// Whether this is one of the start/stop letters `A B C D`, which never appear inside the data.
    public var isStartStop: Bool { rawValue >= CodabarCharacter.a.rawValue }

    /// The seven elements, bar first and alternating bar/space; `true` is a wide element.
    ///
    /// From ARCHITECTURE §4 (the AIM Codabar table): `0–9 - $` have two wide elements (one bar, one space),
    /// `: / . +` three wide bars, `A–D` one wide bar and two wide spaces.
    public var widePattern: [Bool] {
        let bits = Self.patterns[Int(rawValue)]
        return (0..<7).map { index in bits & (1 << (6 - index)) != 0 }
    }

    /// The character for an ASCII byte, or `nil` outside the Codabar alphabet (lower case included).
    public init?(ascii: UInt8) {
        guard let index = Self.alphabet.firstIndex(of: ascii) else { return nil }
        self.init(rawValue: UInt8(index))
    }

    /// The character with a given check value (0–19).
    public init?(checkValue: Int) {
        guard (0..<20).contains(checkValue) else { return nil }
        self.init(rawValue: UInt8(checkValue))
    }

    private static let alphabet: [UInt8] = Array("0123456789-$:/.+ABCD".utf8)

    /// Seven bits per character, first element in the high bit; 1 = wide.
    private static let patterns: [UInt8] = [
        0b000_0011, 0b000_0110, 0b000_1001, 0b110_0000, 0b001_0010,
        0b100_0010, 0b010_0001, 0b010_0100, 0b011_0000, 0b100_1000,
        0b000_1100, 0b001_1000, 0b100_0101, 0b101_0001, 0b101_0100,
        0b001_0101, 0b001_1010, 0b010_1001, 0b000_1011, 0b000_1110,
    ]
}

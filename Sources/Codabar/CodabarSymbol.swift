/// A validated Codabar symbol: a start letter, at least one data character, and a stop letter.
///
/// Deliberately not `CustomStringConvertible`: the text is a person's gym ID, and it must be asked for
/// by name (`text`) rather than leak into string interpolation or logs.
public struct CodabarSymbol: Sendable, Hashable {
    /// Start, data and stop, in order.
    public let characters: [CodabarCharacter]

    /// The longest symbol accepted, start and stop included. zint caps its input at 60 characters and
    /// handheld readers are commonly configured well below the 255 that decoders accept; a longer symbol
    /// is also wider than a phone screen at a readable bar width, so nothing longer is made.
    public static let maximumLength = 60

    /// The full text as a decoder reports it, e.g. `A123456789B`.
    public var text: String { String(characters.map(\.symbol)) }

    /// The characters between start and stop.
    public var data: ArraySlice<CodabarCharacter> { characters.dropFirst().dropLast() }

    /// Whether this is a Virginia Tech ID: `A`, nine digits, `B`.
    public var isVirginiaTechID: Bool {
        characters.count == 11 && characters.first == .a && characters.last == .b
            && data.allSatisfy { $0.checkValue < 10 }
    }

    /// How a person reads the ID: `1234-56789` for a Virginia Tech ID, otherwise the full text.
    public var displayText: String {
        guard isVirginiaTechID else { return text }
        let digits = data.map(\.symbol)
        return String(digits[0..<4]) + "-" + String(digits[4...])
    }

    /// Normalizes what a person typed or a scanner read, then validates it strictly.
    ///
    /// The rule (ARCHITECTURE §4, kept from the app): trim and uppercase; exactly nine digits, also written
    /// `1234-56789` or `1234 56789`, is a Virginia Tech ID and becomes `A<digits>B`; otherwise `A` is
    /// prepended when the first character is not `A–D`, and `B` appended when the last is not. Then the
    /// data must be non-empty, hold no start/stop letter, and use only `0-9 - $ : / . +`.
    ///
    /// `T N * E`, the older names of the start/stop patterns, are refused rather than guessed at, with a
    /// message saying which letter to write instead: a wrong start/stop would be a different symbol.
    public init(normalizing input: String) throws(CodabarError) {
        let typed = IDText.trimmed(input)
        guard !typed.isEmpty else { throw .empty }
        if let digits = Self.virginiaTechDigits(typed) {
            try self.init(start: .a, data: digits, stop: .b)
            return
        }
        let upper = typed.map { IDText.asciiUppercased($0) }
        var start = 0
        var end = upper.count
        var leading: CodabarCharacter = .a
        var trailing: CodabarCharacter = .b
        if let first = Self.startStop(upper[0]) {
            leading = first
            start = 1
        }
        if end > start, let last = Self.startStop(upper[end - 1]) {
            trailing = last
            end -= 1
        }
        guard end > start else { throw .noData }
        var data: [CodabarCharacter] = []
        data.reserveCapacity(end - start)
        for index in start..<end {
            let character = upper[index]
            guard let ascii = character.asciiValue, let codabar = CodabarCharacter(ascii: ascii) else {
                throw .invalidCharacter(typed[index], position: index + 1)
            }
            guard !codabar.isStartStop else { throw .startStopInData(character, position: index + 1) }
            data.append(codabar)
        }
        try self.init(start: leading, data: data, stop: trailing)
    }

    /// A symbol from its parts; the data must be non-empty and hold only data characters.
    public init(start: CodabarCharacter, data: [CodabarCharacter], stop: CodabarCharacter)
        throws(CodabarError)
    {
        precondition(start.isStartStop && stop.isStartStop, "start and stop must be A-D")
        guard !data.isEmpty else { throw .noData }
        if let inner = data.firstIndex(where: \.isStartStop) {
            throw .startStopInData(data[inner].symbol, position: inner + 2)
        }
        let length = data.count + 2
        guard length <= Self.maximumLength else {
            throw .tooLong(length: length, maximum: Self.maximumLength)
        }
        characters = [start] + data + [stop]
    }

    /// Nine digits, optionally split 4+5 by one hyphen or space.
    /// Whether `input` looks like a Virginia Tech ID with a digit too many or too few (`9051-2345`):
    /// only digits, with a dash or space after the fourth, but not nine of them. Such input is still a
    /// valid Codabar data string, so callers warn rather than refuse.
    public static func looksLikeMistypedVirginiaTechID(_ input: String) -> Bool {
        let typed = IDText.trimmed(input)
        guard virginiaTechDigits(typed) == nil, typed.count > 5, typed[4] == "-" || typed[4] == " " else {
            return false
        }
        let digits = typed.enumerated().filter { $0.offset != 4 }.map(\.element)
        return (7...11).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func virginiaTechDigits(_ typed: [Character]) -> [CodabarCharacter]? {
        var digits = typed
        if typed.count == 10, typed[4] == "-" || typed[4] == " " { digits.remove(at: 4) }
        guard digits.count == 9 else { return nil }
        var result: [CodabarCharacter] = []
        for character in digits {
            guard let ascii = character.asciiValue, (48...57).contains(ascii),
                let digit = CodabarCharacter(ascii: ascii)
            else { return nil }
            result.append(digit)
        }
        return result
    }

    private static func startStop(_ character: Character) -> CodabarCharacter? {
        guard let ascii = character.asciiValue, let codabar = CodabarCharacter(ascii: ascii),
            codabar.isStartStop
        else { return nil }
        return codabar
    }
}

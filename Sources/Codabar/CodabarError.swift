import FoundationEssentials

/// Why a text cannot become a Codabar symbol, or why a layout parameter is out of range.
///
/// Positions are 1-based and count characters of the input as the person typed it (after trimming).
/// Messages quote the offending character, never the whole input, so a stored ID cannot leak through them.
public enum CodabarError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing but white space was given.
    case empty
    /// Only start/stop letters: the symbol would carry no data.
    case noData
    /// A character outside `0-9 - $ : / . +` (and `A–D` at the ends).
    case invalidCharacter(Character, position: Int)
    /// A start/stop letter (`A–D`, or an alias `T N * E`) inside the data.
    case startStopInData(Character, position: Int)
    /// Longer than any reader reliably reads.
    case tooLong(length: Int, maximum: Int)
    /// A wide:narrow ratio outside the 2.0–3.0 the specification allows.
    case ratioOutOfRange(Double)

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .empty:
            return "the ID is empty; give the digits printed under the barcode, e.g. 1234-56789"
        case .noData:
            return "the ID has start/stop letters but no data between them"
        case .invalidCharacter(let character, let position):
            // t n e as well as T N E: the ID is upper-cased before it is read.
            if let startStop = Self.startStopAlias[Character(character.uppercased())] {
                return
                    "\(Self.quote(character)) at position \(position) is an old name for the start/stop "
                    + "letter \(startStop); write \(startStop) instead"
            }
            return
                "\(Self.quote(character)) at position \(position) cannot be encoded in Codabar; "
                + "use digits and - $ : / . + (A-D only at the ends)"
        case .startStopInData(let character, let position):
            return
                "\(Self.quote(character)) at position \(position) is a start/stop letter and may only be "
                + "the first or last character"
        case .tooLong(let length, let maximum):
            return
                "the ID is \(length) characters long; Codabar readers only read up to \(maximum) "
                + "(start and stop included)"
        case .ratioOutOfRange(let ratio):
            return "a wide:narrow ratio of \(ratio) is outside the 2.0-3.0 Codabar allows"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// `T N * E` are the older names of the start/stop patterns `A B C D`.
    static let startStopAlias: [Character: Character] = ["T": "A", "N": "B", "*": "C", "E": "D"]

    private static func quote(_ character: Character) -> String {
        switch character {
        case " ": return "a space"
        case "\t": return "a tab"
        default:
            if character.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.value < 0x20 }) {
                let codes = character.unicodeScalars.map {
                    "U+" + String($0.value, radix: 16, uppercase: true)
                }
                return codes.joined(separator: " ")
            }
            return "'\(character)'"
        }
    }
}

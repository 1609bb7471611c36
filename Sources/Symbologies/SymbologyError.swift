import Codabar
import FoundationEssentials

/// Why a text cannot be carried by a symbology.
///
/// Positions are 1-based and count characters of the input as the person typed it (after trimming).
/// Messages quote the offending character, never the whole input, so a stored ID cannot leak through them.
public enum SymbologyError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing but white space was given.
    case empty(Symbology)
    /// A character the symbology cannot encode.
    case invalidCharacter(Character, position: Int, symbology: Symbology)
    /// A length the symbology does not have (EAN/UPC, or an odd number of digits for Interleaved 2 of 5).
    case wrongLength(length: Int, symbology: Symbology)
    /// Longer than gymcard draws in this symbology.
    case tooLong(length: Int, maximum: Int, symbology: Symbology)
    /// Longer than the symbology holds once each character is written in its symbol characters (Code 93
    /// writes lower case and most punctuation as two).
    case tooLongExpanded(symbolCharacters: Int, maximum: Int, symbology: Symbology)
    /// The EAN/UPC check digit given is not the one the digits before it call for.
    case wrongCheckDigit(Character, position: Int, expected: Character, symbology: Symbology)
    /// A UPC-E number system other than 0 or 1.
    case upcENumberSystem(Character)
    /// Digits that no UPC-A is zero-suppressed to: the `digit` (ordinal) of the six after the number system
    /// must be what `needs` says.
    case notUPCE(digit: String, needs: String)
    /// A Codabar text refused by the Codabar rules.
    case codabar(CodabarError)
    /// A character the card's text encoding cannot carry (a character beyond U+00FF in ISO-8859-1).
    case notInEncoding(Character, position: Int, encoding: TextEncoding, symbology: Symbology)

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .empty(let symbology):
            return "the ID is empty; a \(symbology.displayName) ID takes \(symbology.acceptedText)"
        case .invalidCharacter(let character, let position, let symbology):
            return
                "\(Self.quote(character)) at position \(position) cannot be encoded in \(symbology.displayName); "
                + "use \(symbology.acceptedText)"
        case .wrongLength(let length, let symbology):
            return
                "the ID has \(length) \(length == 1 ? "digit" : "digits"); \(symbology.displayName) takes "
                + symbology.acceptedText
        case .tooLong(let length, let maximum, let symbology):
            return
                "the ID is \(length) characters long; gymcard draws \(symbology.displayName) IDs of up to "
                + "\(maximum) characters"
        case .tooLongExpanded(let count, let maximum, let symbology):
            return
                "the ID takes \(count) symbol characters; \(symbology.displayName) holds up to \(maximum) (lower-case "
                + "letters and punctuation other than - . $ / + % take two each)"
        case .wrongCheckDigit(let character, let position, let expected, let symbology):
            return
                "\(Self.quote(character)) at position \(position) is not the \(symbology.displayName) check digit "
                + "of the digits before it (that is \(expected)); check the number, or leave the check digit "
                + "out and gymcard adds it"
        case .upcENumberSystem(let character):
            return
                "\(Self.quote(character)) at position 1 cannot start a UPC-E number: its number system is 0 or 1; "
                + "use \(Symbology.upce.acceptedText)"
        case .notUPCE(let digit, let needs):
            return
                "the digits are no UPC-E: the \(digit) of its six digits must be \(needs) (GS1's zero "
                + "suppression); check the number, or draw its 12 digits as UPC-A"
        case .codabar(let error):
            return error.description
        case .notInEncoding(let character, let position, let encoding, let symbology):
            return
                "\(Self.quote(character)) at position \(position) is not an \(encoding.catimaName) character, the "
                + "text encoding the \(symbology.displayName) card names; such a card needs UTF-8"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    private static func quote(_ character: Character) -> String {
        switch character {
        case " ": return "a space"
        case "\t": return "a tab"
        default:
            if character.unicodeScalars.allSatisfy({
                $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
            })
                || character.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) })
            {
                let codes = character.unicodeScalars.map {
                    "U+" + String($0.value, radix: 16, uppercase: true)
                }
                return codes.joined(separator: " ")
            }
            return "'\(character)'"
        }
    }
}

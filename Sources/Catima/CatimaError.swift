import DynamicLoading
import FoundationEssentials
import Symbologies

/// Why a Catima file or link could not be read or written: one line for a person, saying what and where.
///
/// Messages never quote a card ID, a barcode text or a password; they name lines, columns and entries.
public enum CatimaError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    // MARK: CSV

    /// The bytes are not UTF-8 text (Catima writes UTF-8).
    case notText(line: Int)
    /// A quoted field is never closed.
    case unclosedQuote(line: Int)
    /// A character follows a closing quote inside a field.
    case textAfterQuote(line: Int)
    /// The version record names a version gymcard does not read.
    case unsupportedVersion(String)
    /// The version-2 file has no card section.
    case missingCardSection
    /// The card header lacks a column gymcard needs (`store`, `cardid`).
    case missingColumn(String, line: Int)
    /// A record has more or fewer fields than its header.
    case wrongFieldCount(found: Int, expected: Int, line: Int)
    /// A field Catima requires is empty.
    case emptyField(String, line: Int)
    /// The file holds no card.
    case noCards

    // MARK: Zip

    /// The zip archive is damaged or not a zip archive, with libzip's reason.
    case damagedZip(String)
    /// The zip's entries are encrypted and no password was given.
    case passwordNeeded
    /// The password does not open the zip's entries.
    case wrongPassword
    /// The zip holds no `catima.csv`.
    case noCatimaCSV
    /// An entry is larger than a Catima export can be.
    case entryTooLarge(name: String, bytes: UInt64)
    /// Encrypting with an empty password was asked for.
    case emptyPassword
    /// libzip is not installed, or lacks a function gymcard needs.
    case libzipMissing(LoadingError)
    /// libzip failed while writing, with its reason.
    case zipWriteFailed(String)

    // MARK: Share links

    /// The text is not a Catima share link, with the reason.
    case notAShareLink(String)
    /// The link lacks a field Catima requires (`store`, `note`, `cardid`).
    case linkMissingField(String)
    /// A `%` in the link is not followed by two hexadecimal digits, or the bytes are not UTF-8.
    case badLinkEncoding
    /// A field of the link has no `=` or, for `headercolor`, no whole number: Catima refuses the link.
    case badLinkField(String)

    // MARK: The card

    /// The card has no barcode type: Catima shows it without a barcode, and gymcard has nothing to draw.
    case noBarcodeType(line: Int)
    /// The card's barcode type is one gymcard does not draw.
    case unsupportedBarcodeType(String, line: Int)
    /// The card's text cannot be drawn in its symbology.
    case invalidBarcodeText(SymbologyError, line: Int)
    /// The card names a text encoding other than ISO-8859-1 and UTF-8.
    case unsupportedEncoding(String, line: Int)

    /// ZXing's format names that Catima may store but gymcard does not draw.
    static let otherZXingNames: Set<String> = ["MAXICODE", "RSS_14", "RSS_EXPANDED", "UPC_EAN_EXTENSION"]

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .notText(let line):
            return "line \(line) is not UTF-8 text; Catima exports are UTF-8 CSV files"
        case .unclosedQuote(let line):
            return
                "the quoted field starting on line \(line) is never closed; the CSV file is cut short or damaged"
        case .textAfterQuote(let line):
            return "line \(line) has text after a closing quote; the CSV file is damaged"
        case .unsupportedVersion(let version):
            return
                "the file says it is version \(Self.visible(version)) of Catima's format; gymcard reads versions 1 and 2"
        case .missingCardSection:
            return "the file has no card section; it is not a complete Catima export"
        case .missingColumn(let column, let line):
            return "the card header on line \(line) has no \(column) column; it is not a Catima card list"
        case .wrongFieldCount(let found, let expected, let line):
            return
                "the record on line \(line) has \(found) \(found == 1 ? "field" : "fields") where its header has "
                + "\(expected); the CSV file is damaged"
        case .emptyField(let column, let line):
            return "the card on line \(line) has an empty \(column), which Catima requires"
        case .noCards:
            return "the file holds no card"
        case .damagedZip(let reason):
            return "the zip archive is damaged (\(reason)); export it from Catima again"
        case .passwordNeeded:
            return "the zip archive is encrypted; give its password"
        case .wrongPassword:
            return "the password does not open the zip archive; check it and try again"
        case .noCatimaCSV:
            return "the zip archive holds no catima.csv; it is not a Catima export"
        case .entryTooLarge(let name, let bytes):
            return
                "\(Self.visible(name)) in the zip archive is \(bytes) bytes, more than a Catima export holds; "
                + "it is not a Catima export"
        case .emptyPassword:
            return "the password is empty; give one, or export without a password"
        case .libzipMissing(let error):
            let what = error.description
            return "libzip is not usable (\(what)); \(error.library.installAdvice)"
        case .zipWriteFailed(let reason):
            return "could not write the zip archive: \(reason)"
        case .notAShareLink(let reason):
            return "not a Catima share link: \(reason)"
        case .linkMissingField(let field):
            return "the Catima share link has no \(field) field; copy the whole link from Catima again"
        case .badLinkEncoding:
            return "the Catima share link is damaged (a bad %-escape or not UTF-8); copy the whole link again"
        case .badLinkField(let field):
            let which = field.isEmpty ? "an empty field" : "its \(Self.visible(field)) field"
            return "the Catima share link is damaged (\(which)); copy the whole link from Catima again"
        case .noBarcodeType(let line):
            return "the card\(Self.at(line)) has no barcode type (Catima shows it without a barcode); "
                + "gymcard needs one of " + Self.drawnNames
        case .unsupportedBarcodeType(let name, let line):
            let known = Self.otherZXingNames.contains(name)
            return
                "the card\(Self.at(line)) has barcode type \(Self.visible(name)), "
                + (known ? "which gymcard cannot draw" : "which neither Catima nor gymcard knows")
                + "; gymcard draws " + Self.drawnNames
        case .invalidBarcodeText(let error, let line):
            return "the card\(Self.at(line)) cannot be stored: \(error.description)"
        case .unsupportedEncoding(let name, let line):
            return
                "the card\(Self.at(line)) names the text encoding \(Self.visible(name)); gymcard draws "
                + "ISO-8859-1 and UTF-8, the two Catima offers; choose one of them in Catima and share the card again"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    private static func at(_ line: Int) -> String { line > 0 ? " on line \(line)" : "" }

    private static var drawnNames: String { Symbology.allCases.map(\.catimaName).joined(separator: ", ") }

    /// Text from a file, shown only as printable ASCII (at most 40 characters): it cannot steer a terminal.
    static func visible(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(40) {
            shown += (0x20..<0x7F).contains(scalar.value) ? String(scalar) : "?"
        }
        return text.unicodeScalars.count > 40 ? shown + "…" : shown
    }
}

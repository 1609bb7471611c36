import Codabar
import Symbologies

/// One card as Catima keeps it: the fields of a Catima export's card record, or of a share link, that
/// gymcard reads or writes.
///
/// Catima's field names (its `CARD_FIELDS.md`): `store` names the card, `cardid` is the ID shown under the
/// barcode, `barcodeid` the text the barcode carries when it differs from the ID, `barcodetype` ZXing's
/// name of the symbology (or nothing: a card without a barcode). Deliberately not
/// `CustomStringConvertible`: the ID is a person's card number.
public struct CatimaCard: Sendable, Hashable {
    /// The barcode type column, as gymcard understands it.
    public enum BarcodeType: Sendable, Hashable {
        /// No type: Catima shows such a card without a barcode.
        case none
        /// A symbology gymcard draws.
        case symbology(Symbology)
        /// A name gymcard does not draw: one of ZXing's other formats (`MAXICODE`, `RSS_14`,
        /// `RSS_EXPANDED`, `UPC_EAN_EXTENSION`) or a name Catima does not know either.
        case unsupported(String)

        /// The type named in a Catima file (`CODE_128`), or `.none` for an empty field.
        public init(catimaName: String) {
            if catimaName.isEmpty {
                self = .none
            } else if let symbology = Symbology(catimaName: catimaName) {
                self = .symbology(symbology)
            } else {
                self = .unsupported(catimaName)
            }
        }

        /// The name Catima writes (empty for `.none`).
        public var catimaName: String {
            switch self {
            case .none: return ""
            case .symbology(let symbology): return symbology.catimaName
            case .unsupported(let name): return name
            }
        }
    }

    /// The store the card belongs to (Catima requires one).
    public var store: String
    /// The note, possibly several lines.
    public var note: String
    /// The card's ID (`cardid`), as shown under the barcode.
    public var cardID: String
    /// The barcode's text when it differs from the ID (`barcodeid`), else `nil`.
    public var barcodeID: String?
    /// The barcode type.
    public var barcodeType: BarcodeType
    /// The text encoding the card names (`barcodeencoding`) as written, or `nil` for none (an empty field,
    /// or a link without it). Catima offers `ISO-8859-1` and `UTF-8`; gymcard draws those two.
    public var barcodeEncoding: String?
    /// The header colour, a signed 32-bit Android colour (`0xAARRGGBB`), or `nil` for Catima's choice.
    public var headerColor: Int32?
    /// Whether the card is starred (`starstatus` 1).
    public var isStarred: Bool
    /// Whether the card is archived (`archive` 1).
    public var isArchived: Bool
    /// The line of the file the card's record starts on (1-based), or 0 for a card from a link.
    public var line: Int

    /// A card with the given fields.
    public init(
        store: String, note: String = "", cardID: String, barcodeID: String? = nil,
        barcodeType: BarcodeType, barcodeEncoding: String? = nil, headerColor: Int32? = nil,
        isStarred: Bool = false, isArchived: Bool = false, line: Int = 0
    ) {
        self.store = store
        self.note = note
        self.cardID = cardID
        self.barcodeID = barcodeID
        self.barcodeType = barcodeType
        self.barcodeEncoding = barcodeEncoding
        self.headerColor = headerColor
        self.isStarred = isStarred
        self.isArchived = isArchived
        self.line = line
    }

    /// The card gymcard exports for a stored barcode: `cardid` is the exact text (Codabar with its start
    /// and stop letters, so that Catima draws it as given rather than wrapping it in `A…A`), the store is
    /// the label, else "Hokie Passport" for a Virginia Tech ID, else "Gym card".
    ///
    /// The encoding is the one Catima draws the text with as gymcard does: `UTF-8` for a UTF-8 text,
    /// `ISO-8859-1` for Latin-1 beyond ASCII (both with an ECI, ARCHITECTURE §13), none for ASCII, which
    /// Catima then draws without an ECI (an explicit ISO-8859-1 makes its ZXing add ECI 1 to a QR code in
    /// byte mode, which some shop scanners refuse: Catima issue 2921). A card that came from Catima gets
    /// its own encoding, colour and card ID back from the caller.
    public init(exporting content: BarcodeContent, label: String?) {
        let trimmedLabel = String(
            (label ?? "").drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        let isVirginiaTechID =
            content.symbology == .codabar
            && ((try? CodabarSymbol(normalizing: content.text))?.isVirginiaTechID ?? false)
        let store = !trimmedLabel.isEmpty ? trimmedLabel : (isVirginiaTechID ? "Hokie Passport" : "Gym card")
        let encoding: TextEncoding? =
            content.encoding ?? (content.eciDesignator != nil ? .isoLatin1 : nil)
        self.init(
            store: store, cardID: content.text, barcodeType: .symbology(content.symbology),
            barcodeEncoding: encoding?.catimaName,
            headerColor: isVirginiaTechID ? Self.chicagoMaroon : Self.slate)
    }

    /// Virginia Tech's Chicago Maroon, #861F41, as Catima stores colours (opaque ARGB, signed).
    static let chicagoMaroon = Int32(bitPattern: 0xFF86_1F41)
    /// A dark slate, #37474F, for other cards.
    static let slate = Int32(bitPattern: 0xFF37_474F)

    /// The text the barcode carries: `barcodeid` when set, else `cardid` (Catima draws the same).
    public var barcodeText: String { barcodeID ?? cardID }

    /// The encoding the card names, or `nil` for none.
    ///
    /// - Throws: ``CatimaError/unsupportedEncoding(_:line:)`` for a name that is neither ISO-8859-1 nor
    ///   UTF-8 (nor one of Java's aliases of them): Catima would draw with another charset.
    public func textEncoding() throws(CatimaError) -> TextEncoding? {
        guard let name = barcodeEncoding, !name.isEmpty else { return nil }
        guard let encoding = TextEncoding(catimaName: name) else {
            throw .unsupportedEncoding(name, line: line)
        }
        return encoding
    }

    /// The barcode gymcard would store for this card: its type must be one gymcard draws and its text
    /// valid for it in its encoding, after gymcard's normalization (a Codabar value without start/stop
    /// letters gets them).
    public func barcodeContent() throws(CatimaError) -> BarcodeContent {
        switch barcodeType {
        case .none:
            throw .noBarcodeType(line: line)
        case .unsupported(let name):
            throw .unsupportedBarcodeType(name, line: line)
        case .symbology(let symbology):
            let encoding = try textEncoding()
            do {
                return try BarcodeContent(symbology: symbology, normalizing: barcodeText, encoding: encoding)
            } catch {
                throw .invalidBarcodeText(error, line: line)
            }
        }
    }
}

import Codabar
import FoundationEssentials
import Symbologies

/// The stored card: the JSON document inside the age file (or, without a passphrase, in the clear).
///
/// Schema 1 (gymcard before symbologies) held only Codabar cards: `symbology` was always `codabar` and
/// `id` the normalized Codabar text. Schema 2 keeps the same fields with any ``Symbology`` and `id` the
/// card's exact text in it (``BarcodeContent/text``: a Codabar card's start/stop letters, a Code 39 check
/// character, an EAN's check digit, a Code 128 card's full text). Both are read; schema 2 is written, so a
/// gymcard that knows only schema 1 refuses such a card instead of drawing a Code 128 ID as Codabar.
///
/// Schema 3 adds `encoding` (the text encoding a 2D card is drawn with) and `catima` (what a card imported
/// from Catima had beyond its barcode, which `export` and `share` give back). It is written only for a
/// card that has either, so that a gymcard that ignores them refuses the card (drawing a UTF-8 text
/// without its ECI, or exporting another colour) instead of using it; other cards stay schema 2.
///
/// Its description redacts the ID so that the record can never leak it through logging or `print`.
public struct CardRecord: Codable, Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible
{
    /// The schema of this document; readers refuse newer ones.
    public var schemaVersion: Int
    /// The symbology's command-line name (``Symbology/name``), e.g. `codabar`, `code128`.
    public var symbology: String
    /// The card's exact text in its symbology, e.g. `A905123456B`.
    public var id: String
    /// An optional name for the card ("Hokie Passport").
    public var label: String?
    /// When the card was first stored.
    public var created: Date
    /// When the ID was last changed.
    public var updated: Date
    /// The text encoding a 2D card is drawn with (``BarcodeContent/encoding``), or `nil` for none.
    public var encoding: TextEncoding?
    /// What the card had in Catima beyond its barcode, for a card imported from Catima; `nil` otherwise.
    public var catima: CatimaFields?

    /// A card's fields in Catima that gymcard does not draw but gives back as they were, so that an
    /// import and an export make the same Catima card (ARCHITECTURE §13).
    ///
    /// Its description redacts the card ID, as the record's does.
    public struct CatimaFields: Codable, Equatable, Sendable, CustomStringConvertible {
        /// `barcodeencoding`: the encoding the card named, kept for any symbology (Catima keeps it for
        /// Code 128 too); `nil` when it named none.
        public var encoding: TextEncoding?
        /// `headercolor`, a signed Android colour (`0xAARRGGBB`); `nil` when it had none.
        public var headerColor: Int32?
        /// `cardid` when the barcode carries another value (`barcodeid`, which is ``CardRecord/id``);
        /// `nil` when the barcode carries the card ID itself.
        public var cardID: String?

        /// Fields as Catima had them.
        public init(encoding: TextEncoding?, headerColor: Int32?, cardID: String?) {
            self.encoding = encoding
            self.headerColor = headerColor
            self.cardID = cardID
        }

        /// Redacted.
        public var description: String {
            "CatimaFields(encoding: \(encoding?.catimaName ?? "none"), headerColor: "
                + "\(headerColor.map { String($0) } ?? "none"), cardID: \(cardID == nil ? "none" : "<redacted>"))"
        }
    }

    /// The newest schema this gymcard reads; it writes it only for a card that needs it
    /// (``writtenSchemaVersion``).
    public static let currentSchemaVersion = 3

    /// A new record for a validated card text, with its encoding; `catima` for a card from Catima.
    public init(
        content: BarcodeContent, label: String? = nil, catima: CatimaFields? = nil, now: Date = Date()
    ) {
        self.init(symbology: content.symbology, text: content.text, label: label, now: now)
        encoding = content.encoding
        self.catima = catima
        schemaVersion = writtenSchemaVersion
    }

    /// A new record for a Codabar symbol.
    public init(symbol: CodabarSymbol, label: String? = nil, now: Date = Date()) {
        self.init(symbology: .codabar, text: symbol.text, label: label, now: now)
    }

    private init(symbology: Symbology, text: String, label: String?, now: Date) {
        schemaVersion = 2
        self.symbology = symbology.name
        id = text
        self.label = label
        created = now
        updated = now
    }

    /// The card's symbology and exact text, validated.
    ///
    /// - Throws: ``VaultError/damaged(_:)`` for an unknown symbology, or a text the symbology cannot carry
    ///   exactly as stored.
    public func content() throws(VaultError) -> BarcodeContent {
        guard let kind = Symbology(rawValue: symbology) else {
            throw .damaged("the stored card's symbology is not one gymcard knows")
        }
        if schemaVersion < 2 {
            // Schema 1: Codabar only, the ID normalized as gymcard normalized it then.
            guard kind == .codabar, let content = try? BarcodeContent(symbology: .codabar, normalizing: id)
            else {
                throw .damaged("the stored ID is not a valid Codabar ID")
            }
            return content
        }
        guard let content = try? BarcodeContent(symbology: kind, normalizing: id, encoding: encoding),
            content.text == id
        else {
            throw .damaged("the stored ID is not a valid \(kind.displayName) ID")
        }
        return content
    }

    /// The schema the record is written with: 3 when it has an encoding or Catima's fields, else what it
    /// was read or made with (2, or 1 for a card stored before symbologies and never changed since).
    var writtenSchemaVersion: Int { encoding != nil || catima != nil ? 3 : min(schemaVersion, 2) }

    /// The ID as a validated Codabar symbol (a Codabar card's).
    public func symbol() throws(VaultError) -> CodabarSymbol {
        guard try content().symbology == .codabar, let symbol = try? CodabarSymbol(normalizing: id) else {
            throw .damaged("the stored card is not a Codabar card")
        }
        return symbol
    }

    /// Redacted.
    public var description: String { "CardRecord(id: <redacted>, label: \(label ?? "none"))" }
    /// Redacted.
    public var debugDescription: String { description }

    func encoded() -> [UInt8] {
        var record = self
        record.schemaVersion = writtenSchemaVersion
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Encoding plain strings, numbers and dates cannot fail.
        return (try? [UInt8](encoder.encode(record))) ?? []
    }

    static func decoded(_ bytes: [UInt8]) throws(VaultError) -> CardRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let record: CardRecord
        do { record = try decoder.decode(CardRecord.self, from: Data(bytes)) } catch {
            throw .damaged("the card document is not valid JSON of the expected shape")
        }
        guard record.schemaVersion <= currentSchemaVersion else {
            throw .unsupported(
                "card schema \(record.schemaVersion) is newer than this gymcard; upgrade gymcard")
        }
        _ = try record.content()
        return record
    }
}

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

    /// The schema version this gymcard writes.
    public static let currentSchemaVersion = 2

    /// A new record for a validated card text.
    public init(content: BarcodeContent, label: String? = nil, now: Date = Date()) {
        self.init(symbology: content.symbology, text: content.text, label: label, now: now)
    }

    /// A new record for a Codabar symbol.
    public init(symbol: CodabarSymbol, label: String? = nil, now: Date = Date()) {
        self.init(symbology: .codabar, text: symbol.text, label: label, now: now)
    }

    private init(symbology: Symbology, text: String, label: String?, now: Date) {
        schemaVersion = Self.currentSchemaVersion
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
        guard let content = try? BarcodeContent(symbology: kind, normalizing: id), content.text == id else {
            throw .damaged("the stored ID is not a valid \(kind.displayName) ID")
        }
        return content
    }

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
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Encoding plain strings, numbers and dates cannot fail.
        return (try? [UInt8](encoder.encode(self))) ?? []
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

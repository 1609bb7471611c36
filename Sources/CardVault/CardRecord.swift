import Codabar
import FoundationEssentials

/// The stored card: the JSON document inside the age file (or, without a passphrase, in the clear).
///
/// Its description redacts the ID so that the record can never leak it through logging or `print`.
public struct CardRecord: Codable, Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible
{
    /// The schema of this document; readers refuse newer ones.
    public var schemaVersion: Int
    /// Always `codabar` for now.
    public var symbology: String
    /// The normalized ID, e.g. `A905123456B`.
    public var id: String
    /// An optional name for the card ("Hokie Passport").
    public var label: String?
    /// When the card was first stored.
    public var created: Date
    /// When the ID was last changed.
    public var updated: Date

    /// The schema version this gymcard writes.
    public static let currentSchemaVersion = 1

    /// A new record for a validated symbol.
    public init(symbol: CodabarSymbol, label: String? = nil, now: Date = Date()) {
        schemaVersion = Self.currentSchemaVersion
        symbology = "codabar"
        id = symbol.text
        self.label = label
        created = now
        updated = now
    }

    /// The ID as a validated symbol.
    public func symbol() throws(VaultError) -> CodabarSymbol {
        do { return try CodabarSymbol(normalizing: id) } catch {
            throw .damaged("the stored ID is not a valid Codabar ID")
        }
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
        _ = try record.symbol()
        return record
    }
}

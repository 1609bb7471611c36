import CardVault
import CivilTime
import FoundationEssentials
import Glibc
import GymcardCore
import JSONOutput
import Symbologies

/// What `card` says about the stored card: where it is, whether it is encrypted and when it was last
/// written; once unlocked, its label, symbology, ID and times.
public struct CardReport: Sendable {
    /// The card file.
    public var path: String
    /// Whether it is an age file behind a passphrase.
    public var encrypted: Bool
    /// When the file was last written, when the file system says.
    public var written: Date?
    /// The card, when unlocked.
    public var record: CardRecord?

    /// The report of `store`'s card as it is protected (`record` when it was unlocked).
    public init(store: CardStore, protection: CardStore.Protection, record: CardRecord?) {
        encrypted = protection == .passphrase
        path = encrypted ? store.encryptedPath : store.plainPath
        var status = stat()
        written = stat(path, &status) == 0 ? Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec)) : nil
        self.record = record
    }

    /// Name and value lines; `dateAndClock` writes a time as people read it, `lockedReason` says why the
    /// ID is not shown when the card was not unlocked. Values are the user's text, not yet terminal-safe.
    public func lines(now: Date, lockedReason: String, dateAndClock: (Date) -> String) throws(VaultError)
        -> [(name: String, value: String)]
    {
        var lines = [("Card", path + (encrypted ? " (encrypted with a passphrase)" : " (not encrypted)"))]
        if let written {
            lines.append(("Written", dateAndClock(written) + " (" + Age.ago(from: written, to: now) + ")"))
        }
        guard let record else { return lines + [("ID", lockedReason)] }
        let content = try record.content()
        lines.append(("Label", record.label ?? "none (set one with gymcard card --label <text>)"))
        lines.append(("Barcode", content.symbology.displayName))
        // A Codabar ID in both forms (9051-23456 (A905123456B)); any other as it is.
        let isCodabar = content.symbology == .codabar
        lines.append(("ID", isCodabar ? "\(content.displayText) (\(content.text))" : content.text))
        lines.append(("Created", dateAndClock(record.created)))
        lines.append(("Updated", dateAndClock(record.updated)))
        return lines
    }

    /// The `--json` object: explicit `null`s, times in ISO 8601 UTC, `symbology` a `--symbology` name.
    public var json: String { JSONText.line(self) }
}

extension CardReport: Encodable {
    private enum Key: String, CodingKey {
        case path, encrypted, written, label, symbology, id, displayId, created, updated
    }

    /// Encodes the `--json` object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(path, forKey: .path)
        try container.encode(encrypted, forKey: .encrypted)
        try container.encode(written?.ISO8601Format(), forKey: .written)
        guard let record else { return }
        let content = try record.content()
        try container.encode(record.label, forKey: .label)
        try container.encode(content.symbology.name, forKey: .symbology)
        try container.encode(content.text, forKey: .id)
        try container.encode(content.displayText, forKey: .displayId)
        try container.encode(record.created.ISO8601Format(), forKey: .created)
        try container.encode(record.updated.ISO8601Format(), forKey: .updated)
    }
}

extension CardReport {
    /// `card`: what the file system says of the stored card and, unless `locked`, what it holds when it
    /// can be opened (it has no passphrase, a script gives it, or there is a terminal to ask on).
    ///
    /// - Throws: ``VaultError/noCard`` when there is none; what unlocking throws.
    public static func read(_ access: CardAccess, locked: Bool) throws -> CardReport {
        guard let protection = access.store.protection() else { throw VaultError.noCard }
        let passphrases = access.passphrases
        let canUnlock = protection == .unencrypted || passphrases.isScripted || passphrases.canAsk()
        let record = !locked && canUnlock ? try access.unlock().record : nil
        return CardReport(store: access.store, protection: protection, record: record)
    }
}

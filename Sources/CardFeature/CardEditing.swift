import CardVault
import CivilTime
import FoundationEssentials
import GymcardCore

/// The stored card changed in place, without storing another ID: its label alone, its passphrase, the
/// previous card brought back, the card forgotten.
extension CardAccess {
    /// Changes the stored card's label (an empty `label`: none) and nothing else, with its passphrase
    /// (asked for when it has one); the version it replaces becomes the previous card. Writes nothing when
    /// the card already has that label, so that the previous card stays the one before the last real
    /// change. Returns what to tell the person (the label as given: the caller makes it terminal-safe).
    public func relabel(_ label: String) throws -> String {
        let newLabel = label.isEmpty ? nil : label
        for _ in 1...3 {
            guard let planned = store.protection() else { throw VaultError.noCard }
            let changed = try withTries { () throws -> Bool? in
                let current = planned == .passphrase ? try self.current() : nil
                return try whileLocked { card throws -> Bool? in
                    guard card.protection() == planned else { return nil }
                    let loaded = try card.load { current ?? [] }
                    for warning in loaded.warnings { say("warning: " + warning) }
                    guard loaded.record.label != newLabel else { return false }
                    var record = loaded.record
                    record.label = newLabel
                    try card.save(record, passphrase: current, keepingPrevious: true)
                    return true
                }
            }
            if let changed {
                let when = changed ? "now" : "already"
                return label.isEmpty
                    ? "the card \(when) has no label" : "the card is \(when) labelled “\(label)”"
            }
            say("another gymcard command changed the stored card meanwhile; going by what it stored")
        }
        throw CardAccessProblem.keptChanging
    }

    /// Swaps the stored card with the previous card, the version the last change kept (`set`,
    /// `scan --save`, `import`, `card --label`), without opening either: each keeps the passphrase it was
    /// stored with, or none. Running it again swaps them back.
    ///
    /// - Throws: ``CardVault/VaultError/noCard`` when no card is stored;
    ///   ``CardAccessProblem/noPreviousCard`` when no different previous card is kept.
    public func restore() throws -> Restored {
        guard let protection = store.protection() else { throw VaultError.noCard }
        guard let restoration = try whileLocked({ card in try card.swapWithPrevious() }) else {
            throw CardAccessProblem.noPreviousCard
        }
        let written = CardReport(store: store, protection: protection, record: nil).written
        return Restored(
            written: written, encrypted: protection == .passphrase, replaced: restoration == .swapped)
    }

    /// The card ``restore()`` brought back.
    public struct Restored: Sendable {
        /// When its file was written.
        public var written: Date?
        /// Whether it is encrypted.
        public var encrypted: Bool
        /// Whether something was in its place (now the previous card), not a missing card file.
        public var replaced = true

        /// What to tell the person: which card is back, that it keeps its passphrase, how to undo it.
        public var notice: String {
            let when = written.map { " (written \(LocalTime.dateAndClock($0)))" } ?? ""
            return "the previous card\(when) is back"
                + (encrypted ? ", with the passphrase it was stored with" : " (not encrypted)")
                + (replaced
                    ? "; the card it replaced is now the previous card: `gymcard card --restore` swaps them back"
                    : "")
        }
    }

    /// Re-stores the card, which must currently be protected as `expected`, under a new passphrase
    /// (`encrypt`: from the new-passphrase script or typed twice) or none, keeping the record as it is.
    ///
    /// On a terminal the current passphrase is checked before the new one is asked for (a mistyped one
    /// is said at once, not after typing the new one twice); the card is then read again with it and
    /// rewritten holding the lock, so a change another gymcard made meanwhile is never undone.
    public func rewrap(from expected: CardStore.Protection, encrypt: Bool) throws {
        try Self.check(store.protection(), expected: expected)
        var current: [UInt8]?
        if expected == .passphrase {
            current = try withTries { () throws -> [UInt8] in
                let given = try self.current()
                if !passphrases.isScripted { _ = try store.load { given } }
                return given
            }
        }
        let passphrase = encrypt ? try passphrases.new(say: say) : nil
        let removedPrevious = try whileLocked { card throws -> Date? in
            try Self.check(card.protection(), expected: expected)
            let loaded = try card.load { current ?? [] }
            for warning in loaded.warnings { say("warning: " + warning) }
            return try card.rewrap(loaded.record, passphrase: passphrase)
        }
        if let removedPrevious {
            say(
                "the previous card (written \(LocalTime.dateAndClock(removedPrevious))) was removed, so that no file "
                    + "opens as before this change; `card --restore` has nothing to bring back now")
        }
    }

    /// Deletes the stored card (its backups too) holding the lock.
    ///
    /// - Throws: ``CardVault/VaultError/noCard`` when there was none.
    public func forget() throws {
        guard try whileLocked({ card in try card.forget() }) else { throw VaultError.noCard }
    }

    /// Fails unless the card is protected as `expected`.
    private static func check(_ protection: CardStore.Protection?, expected: CardStore.Protection) throws {
        switch protection {
        case nil: throw VaultError.noCard
        case .some(let current) where current != expected:
            throw expected == .passphrase ? VaultError.notEncrypted : VaultError.alreadyEncrypted
        default: break
        }
    }
}

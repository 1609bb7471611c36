import FoundationEssentials
import Storage

extension CardStore {
    /// The store while its lock is held (see ``CardStore/whileLocked(whenBusy:_:)``): reads and writes
    /// that do not take the lock again.
    public struct Locked: Sendable {
        let store: CardStore
        let workFactor: Int

        /// How the current card is protected, or `nil` when there is none.
        public func protection() -> Protection? { store.protection() }

        /// Reads the card as ``CardStore/load(passphrase:)`` does.
        public func load(passphrase: () throws -> [UInt8]) throws -> Loaded {
            try store.load(passphrase: passphrase)
        }

        /// The card, or `nil` when no card file is there (the previous card alone may be kept): what a
        /// new card replaces. A damaged card throws, so that it is not replaced and pushed into the
        /// previous card's place.
        public func loadIfPresent(passphrase: () throws -> [UInt8]) throws -> Loaded? {
            do { return try store.load(passphrase: passphrase) } catch VaultError.noCard, VaultError
                .onlyPrevious
            {
                return nil
            }
        }

        /// Stores a record as ``CardStore/save(_:passphrase:)`` does. With `keepingPrevious` (the same card
        /// changed: its label, or stored again), a kept previous card stays the backup instead of the
        /// version replaced, so that `card --restore` still brings back the card before the last one.
        public func save(_ record: CardRecord, passphrase: [UInt8]?, keepingPrevious: Bool = false)
            throws(VaultError)
        {
            let bytes = try CardStore.fileBytes(record, passphrase: passphrase, workFactor: workFactor)
            try write(bytes, protected: passphrase != nil, keepingPrevious: keepingPrevious)
        }

        /// Stores the card under a new passphrase as ``CardStore/rewrap(_:passphrase:)`` does. Returns when
        /// the previous card it removed was written, when one different from the card was kept (no file may
        /// open with the old passphrase afterwards, so it cannot stay).
        @discardableResult
        public func rewrap(_ record: CardRecord, passphrase: [UInt8]?) throws(VaultError) -> Date? {
            let bytes = try CardStore.fileBytes(record, passphrase: passphrase, workFactor: workFactor)
            let removedPrevious = store.differentPreviousWritten()
            store.remove(store.encryptedPath + ".bak")
            store.remove(store.plainPath + ".bak")
            AtomicFile.syncDirectory(store.directory)
            let target = passphrase == nil ? store.plainPath : store.encryptedPath
            try store.write(bytes, to: target)
            store.removeOtherProtection(than: target)
            try store.write(bytes, to: target + ".bak")
            return removedPrevious
        }

        /// Swaps the card with its previous version (its backup), as
        /// ``CardStore/exchangeWithBackup()`` does; returns `nil` when no different one is kept.
        public func swapWithPrevious() throws(VaultError) -> Restoration? { try store.exchangeWithBackup() }

        /// Deletes the card and its backups; returns whether there was a card.
        ///
        /// - Throws: ``VaultError/storage(_:)`` naming what is left in their place (a directory with files in
        ///   it), so that nothing says the card was deleted while something is still there.
        @discardableResult
        public func forget() throws(VaultError) -> Bool {
            let existed = store.protection() != nil
            for path in [
                store.encryptedPath, store.plainPath, store.encryptedPath + ".bak", store.plainPath + ".bak",
            ] {
                store.remove(path)
                guard !store.exists(path) else {
                    throw .storage(
                        "\(path) could not be removed (not an empty file or folder); remove it yourself")
                }
            }
            return existed
        }

        /// Replaces the card with a file's bytes, keeping the file it replaces as the backup.
        func write(_ bytes: [UInt8], protected: Bool, keepingPrevious: Bool = false) throws(VaultError) {
            let target = protected ? store.encryptedPath : store.plainPath
            if !keepingPrevious || !store.exists(target + ".bak") { try store.keepBackup(of: target) }
            try store.write(bytes, to: target)
            store.removeOtherProtection(than: target)
        }
    }
}

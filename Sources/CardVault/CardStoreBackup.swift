import FoundationEssentials
import Glibc
import Storage

/// The previous version of the card, kept beside it as `.bak`: made before each write, swapped with the
/// card (`card --restore`), and what a passphrase change removes.
extension CardStore {
    /// Hard-links the current file as `.bak` (atomically replacing the old backup) before it is replaced.
    func keepBackup(of path: String) throws(VaultError) {
        guard exists(path) else { return }
        let staging = path + ".bak.new"
        unlink(staging)
        let registration = TemporaryNames.register(staging, as: .file)
        defer { TemporaryNames.unregister(registration) }
        guard link(path, staging) == 0, rename(staging, path + ".bak") == 0 else {
            let code = errno
            unlink(staging)
            throw .storage(
                StorageError(errno: code, path: path + ".bak", operation: "keep a backup").description)
        }
        // When .bak is already a link to the same file (a writer was killed after making it), rename(2)
        // does nothing and succeeds, leaving the staging name behind.
        unlink(staging)
    }

    /// How ``exchangeWithBackup()`` brought the previous card back.
    public enum Restoration: Sendable, Equatable {
        /// The card and the previous card swapped names: the card is now the previous card.
        case swapped
        /// No card file was there: the previous card was moved into its place.
        case movedBack
    }

    /// Swaps the card file with its backup, the previous card, in one step; each keeps its bytes (and so
    /// the passphrase it was written with, or none), and both are made 0600. A missing card file is only
    /// replaced by the previous card. Returns `nil`, changing nothing, when no different previous card is
    /// kept: no backup, or one with the card's own bytes (a passphrase change rewrites both alike).
    ///
    /// - Throws: ``VaultError/damagedPrevious(_:)``, changing nothing, when the previous card is damaged
    ///   as far as can be seen without its passphrase (an unencrypted one is read whole).
    func exchangeWithBackup() throws(VaultError) -> Restoration? {
        guard let protection = protection() else { throw .noCard }
        let path = self.path(for: protection)
        // The card may be missing (removed by hand) with the previous card kept: that one is moved back.
        let isMissing = !exists(path)
        // nil also when the card cannot be read as a file (a directory or FIFO in its place, damaged as
        // the other commands say): it is swapped all the same.
        let current = isMissing ? nil : try? readFile(path)
        do {
            let previous = try readFile(path + ".bak")
            if let current, current == previous { return nil }
            try Self.checkStructure(previous, protection: protection)
        } catch .noCard {
            return nil
        } catch .damaged(let detail), .unsupported(let detail) {
            // Not a regular file (a FIFO, a directory), cut short, not a card file.
            throw .damagedPrevious(detail)
        }
        if isMissing {
            guard rename(path + ".bak", path) == 0 else {
                throw .storage(StorageError(errno: errno, path: path, operation: "bring back").description)
            }
        } else {
            do { try FileExchange.exchange(path, path + ".bak", staging: path + ".bak.new") } catch {
                throw .storage("cannot swap the card with its previous version: \(error)")
            }
        }
        // Both files are 0600, whatever mode either was left with (a copy put back by hand); something
        // else in the card's place (a directory) keeps its mode.
        for file in [path, path + ".bak"] {
            var status = stat()
            if lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG { chmod(file, 0o600) }
        }
        return isMissing ? .movedBack : .swapped
    }

    /// When the previous version kept beside the card was written, if there is one that differs from the
    /// card (`nil` otherwise): what a passphrase change is about to remove.
    func differentPreviousWritten() -> Date? {
        guard let protection = protection() else { return nil }
        let card = self.path(for: protection)
        guard let current = try? readFile(card), let previous = try? readFile(card + ".bak"),
            current != previous
        else { return nil }
        var status = stat()
        guard stat(card + ".bak", &status) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec))
    }
}

import DynamicLoading
import FoundationEssentials

/// Why the stored card could not be read or written. Messages never contain the ID or a passphrase.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No card is stored.
    case noCard
    /// No card is stored, but the previous card is kept beside where it was.
    case onlyPrevious
    /// The passphrase does not open the file (or the file's key stanza is damaged: the format cannot
    /// tell the two apart).
    case wrongPassphrase
    /// The file is not an age file, or its header or payload is damaged.
    case damaged(String)
    /// An age file of another version, or not a passphrase (scrypt) file.
    case unsupported(String)
    /// The scrypt work factor is above what gymcard will run.
    case workFactorTooHigh(Int, maximum: Int)
    /// An empty passphrase was given.
    case emptyPassphrase
    /// The card is not protected by a passphrase, but the operation needs one.
    case notEncrypted
    /// The card is already protected by a passphrase.
    case alreadyEncrypted
    /// A file-system failure.
    case storage(String)
    /// The previous version of the card, kept beside it, is damaged (or not a file gymcard reads).
    case damagedPrevious(String)
    /// libcrypto (OpenSSL 3), which a passphrase needs, could not be loaded (or lacks a function).
    case libcryptoMissing(LoadingError)

    /// What happened, in one line; neutral (no commands named: the CLI adds what to do).
    public var description: String {
        switch self {
        case .noCard: return "no stored card"
        case .onlyPrevious: return "no stored card, but the previous card is kept"
        case .wrongPassphrase: return "wrong passphrase (or the card file's key is damaged)"
        case .damaged(let detail):
            return "the stored card file is damaged (\(detail))"
        case .unsupported(let detail): return "the stored card file is not one gymcard reads (\(detail))"
        case .workFactorTooHigh(let logN, let maximum):
            return
                "the card file asks for scrypt work factor 2^\(logN), above the 2^\(maximum) gymcard allows; "
                + "it was not written by gymcard"
        case .emptyPassphrase: return "the passphrase is empty"
        case .notEncrypted: return "the stored card has no passphrase"
        case .alreadyEncrypted: return "the stored card already has a passphrase"
        case .storage(let detail): return detail
        case .damagedPrevious(let detail): return "the previous card's file is damaged (\(detail))"
        case .libcryptoMissing(let error) where error.isAbsent:
            return
                "a card with a passphrase needs \(error.library.soname) (OpenSSL 3), which is not installed"
        case .libcryptoMissing(let error):
            return "a card with a passphrase needs \(error.library.soname) (OpenSSL 3), but \(error)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

import CardVault
import Codabar
import FoundationEssentials
import Storage

/// What `show`, `set`, `forget`, `passphrase` and `scan --save` share: the store, unlocking it (up to
/// three tries on a terminal, one otherwise), storing an ID, and mapping vault errors to exit codes.
struct CardAccess {
    let store: CardStore
    /// Where the current passphrase comes from; `nil` means the terminal only.
    let passphrases: PassphraseOptions?
    /// Whether the command has `--no-passphrase` (messages name only options the command has).
    let offersNoPassphrase: Bool

    init(passphrases: PassphraseOptions?, offersNoPassphrase: Bool = false) {
        store = CardStore(directories: XDGDirectories(environment: Terminal.processEnvironment()))
        self.passphrases = passphrases
        self.offersNoPassphrase = offersNoPassphrase
    }

    /// The stored card, asking for the passphrase when it has one. On a terminal, a wrong or an empty
    /// passphrase is one failed try of three.
    func unlock() throws -> (card: CardStore.Loaded, passphrase: [UInt8]?) {
        let tries = isScripted || !TerminalPrompt.isAvailable ? 1 : 3
        for attempt in 1...tries {
            var given: [UInt8]?
            do {
                let card = try store.load {
                    let value = try currentPassphrase(prompt: "Passphrase for the stored card: ")
                    given = value
                    return value
                }
                for warning in card.warnings { Terminal.standardError.say("warning: " + warning) }
                return (card, given)
            } catch VaultError.wrongPassphrase where attempt < tries {
                Terminal.standardError.say("wrong passphrase; try again (\(tries - attempt) left)")
            } catch is PassphraseOptions.EmptyPassphrase where attempt < tries {
                Terminal.standardError.say("the passphrase is empty; type it again (\(tries - attempt) left)")
            } catch {
                throw Self.failure(error)
            }
        }
        throw Self.failure(VaultError.wrongPassphrase)
    }

    /// Stores `symbol`: with the card's current passphrase when it has one, otherwise as asked
    /// (`noPassphrase`, a scripted passphrase, or a new one typed twice). Prints the confirmation.
    func store(_ symbol: CodabarSymbol, label: String?, noPassphrase: Bool) throws {
        var record = CardRecord(symbol: symbol, label: label)
        var passphrase: [UInt8]?
        switch store.protection() {
        case .passphrase:
            guard !noPassphrase else {
                throw Failure(
                    "the stored card has a passphrase; remove it first with `gymcard passphrase remove`",
                    status: .usage)
            }
            let (current, given) = try unlock()
            record.created = current.record.created
            record.label = label ?? current.record.label
            passphrase = given
        case .unencrypted:
            if let current = try? store.load(passphrase: { [] }) {
                record.created = current.record.created
                record.label = label ?? current.record.label
            }
            passphrase =
                isScripted && !noPassphrase
                ? try newPassphrase(
                    file: passphrases?.passphraseFile, descriptor: passphrases?.passphraseDescriptor) : nil
        case nil:
            if !noPassphrase {
                guard isScripted || TerminalPrompt.isAvailable else {
                    throw Failure(
                        "choose a passphrase for the card: run on a terminal, give --passphrase-file <file> or "
                            + "--passphrase-fd <n>, or store it unencrypted with --no-passphrase",
                        status: .usage)
                }
                passphrase =
                    isScripted
                    ? try newPassphrase(
                        file: passphrases?.passphraseFile, descriptor: passphrases?.passphraseDescriptor)
                    : try newPassphrase(file: nil, descriptor: nil)
            }
        }
        do { try store.save(record, passphrase: passphrase) } catch { throw Self.failure(error) }
        Terminal.standardError.write("Stored \(symbol.displayText).\n")
        if passphrase == nil { warnUnencrypted() }
    }

    /// Re-stores the card, which must currently be protected as `expected`, under a new passphrase
    /// (`nil`: unencrypted), keeping the record as it is.
    func rewrap(from expected: CardStore.Protection, newPassphrase: () throws -> [UInt8]?) throws {
        switch store.protection() {
        case nil: throw Self.failure(VaultError.noCard)
        case .some(let current) where current != expected:
            throw Self.failure(
                expected == .passphrase ? VaultError.notEncrypted : VaultError.alreadyEncrypted)
        default: break
        }
        let (card, _) = try unlock()
        let passphrase = try newPassphrase()
        do { try store.rewrap(card.record, passphrase: passphrase) } catch { throw Self.failure(error) }
    }

    var isScripted: Bool { passphrases?.isScripted ?? false }

    /// The card's current passphrase, from the script's file or descriptor or the terminal.
    ///
    /// - Throws: ``PassphraseOptions/EmptyPassphrase`` when it is empty.
    func currentPassphrase(prompt: String) throws -> [UInt8] {
        let file = passphrases?.passphraseFile
        let descriptor = passphrases?.passphraseDescriptor
        let passphrase = try PassphraseOptions.read(file: file, descriptor: descriptor, prompt: prompt)
        guard !passphrase.isEmpty else {
            throw PassphraseOptions.EmptyPassphrase(file: file, descriptor: descriptor)
        }
        return passphrase
    }

    /// A new passphrase from a file or descriptor, or typed twice on the terminal.
    func newPassphrase(file: String?, descriptor: Int32?) throws -> [UInt8] {
        try PassphraseOptions.new(
            file: file, descriptor: descriptor, alternative: offersNoPassphrase ? "--no-passphrase" : nil)
    }

    func warnUnencrypted() {
        Terminal.standardError.say(
            "the card is NOT encrypted: anyone who can read \(store.plainPath) can see the ID; "
                + "add a passphrase with `gymcard passphrase set`")
    }

    /// The exit code and message for a vault error.
    static func failure(_ error: any Error) -> Failure {
        if let failure = error as? Failure { return failure }
        if let convertible = error as? any ConvertibleToFailure { return convertible.failure }
        guard let vault = error as? VaultError else { return Failure("\(error)", status: .ioError) }
        switch vault {
        case .noCard: return Failure(vault.description, status: .noInput)
        case .wrongPassphrase: return Failure(vault.description, status: .wrongPassphrase)
        case .damaged, .unsupported, .workFactorTooHigh: return Failure(vault.description, status: .dataError)
        case .emptyPassphrase, .notEncrypted, .alreadyEncrypted:
            return Failure(vault.description, status: .usage)
        case .storage: return Failure(vault.description, status: .ioError)
        }
    }
}

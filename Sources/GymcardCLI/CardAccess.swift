import CardVault
import Codabar
import FoundationEssentials
import GymcardCore
import Storage

/// What `show`, `set`, `forget`, `passphrase` and `scan --save` share: the store, unlocking it (up to
/// three tries on a terminal, one otherwise), storing an ID, and mapping vault errors to exit codes.
///
/// A command that changes the card reads it and writes it holding the store's lock, so two gymcard
/// processes never interleave (a `set` that read under the old passphrase cannot write after a
/// `passphrase change`). Every passphrase is asked for before the lock is taken, never while holding it:
/// a second gymcard then waits only for the first one's scrypt and writes (seconds), never for a person
/// at a prompt, and a script never hangs behind someone's open terminal.
struct CardAccess {
    let store: CardStore
    /// Where the current passphrase comes from; `nil` means the terminal only.
    let passphrases: PassphraseOptions?
    /// Whether the command has `--no-passphrase` (messages name only options the command has).
    let offersNoPassphrase: Bool
    /// The passphrase a script gave, read once: a descriptor cannot be read twice.
    private let scriptedPassphrase = ReadOnce()

    init(context: Context, passphrases: PassphraseOptions?, offersNoPassphrase: Bool = false) {
        store = CardStore(directories: context.directories)
        self.passphrases = passphrases
        self.offersNoPassphrase = offersNoPassphrase
    }

    /// The stored card, asking for the passphrase when it has one. On a terminal, a wrong or an empty
    /// passphrase is one failed try of three.
    func unlock() throws -> (card: CardStore.Loaded, passphrase: [UInt8]?) {
        try withPassphraseTries { () throws -> (CardStore.Loaded, [UInt8]?) in
            var given: [UInt8]?
            let card = try store.load {
                let value = try currentPassphrase(prompt: "Passphrase for the stored card: ")
                given = value
                return value
            }
            for warning in card.warnings { Terminal.standardError.say("warning: " + warning) }
            return (card, given)
        }
    }

    /// Runs `attempt` up to three times on a terminal (once otherwise) while it fails with a wrong or an
    /// empty passphrase, saying how many tries are left.
    private func withPassphraseTries<Result>(_ attempt: () throws -> Result) throws -> Result {
        let tries = isScripted || !TerminalPrompt.isAvailable ? 1 : 3
        for number in 1...tries {
            do {
                return try attempt()
            } catch VaultError.wrongPassphrase where number < tries {
                Terminal.standardError.say("wrong passphrase; try again (\(tries - number) left)")
            } catch is PassphraseOptions.EmptyPassphrase where number < tries {
                Terminal.standardError.say("the passphrase is empty; type it again (\(tries - number) left)")
            } catch {
                throw Self.failure(error)
            }
        }
        throw Self.failure(VaultError.wrongPassphrase)
    }

    /// Stores `symbol`: with the card's current passphrase when it has one, otherwise as asked
    /// (`noPassphrase`, a scripted passphrase, or a new one typed twice). Prints the confirmation.
    ///
    /// The plan (which passphrase to ask for) follows how the card is stored; the passphrases are asked
    /// for, then the lock is taken and the card read and written. When another gymcard changed how the
    /// card is stored in between, the plan is made again, as if this command had started after it: a
    /// second first-time `set` then finds the first one's card and needs its passphrase.
    func store(_ symbol: CodabarSymbol, label: String?, noPassphrase: Bool) throws {
        for _ in 1...3 {
            let planned = store.protection()
            if planned == .passphrase, noPassphrase {
                throw Failure(
                    "the stored card has a passphrase; remove it first with `gymcard passphrase remove`",
                    status: .usage)
            }
            var newPassphrase: [UInt8]?
            switch planned {
            case .passphrase: break
            case .unencrypted:
                if isScripted, !noPassphrase { newPassphrase = try scriptedNewPassphrase() }
            case nil:
                if !noPassphrase {
                    guard isScripted || TerminalPrompt.isAvailable else {
                        throw Failure(
                            "choose a passphrase for the card: run on a terminal, give --passphrase-file <file> "
                                + "or --passphrase-fd <n>, or store it unencrypted with --no-passphrase",
                            status: .usage)
                    }
                    newPassphrase =
                        isScripted
                        ? try scriptedNewPassphrase() : try self.newPassphrase(file: nil, descriptor: nil)
                }
            }
            let stored = try withPassphraseTries { () throws -> Bool? in
                let current =
                    planned == .passphrase
                    ? try currentPassphrase(prompt: "Passphrase for the stored card: ") : nil
                return try whileLocked { card throws -> Bool? in
                    guard card.protection() == planned else { return nil }
                    var record = CardRecord(symbol: symbol, label: label)
                    var passphrase = newPassphrase
                    switch planned {
                    case .passphrase:
                        let loaded = try card.load { current ?? [] }
                        for warning in loaded.warnings { Terminal.standardError.say("warning: " + warning) }
                        record.created = loaded.record.created
                        record.label = label ?? loaded.record.label
                        passphrase = current
                    case .unencrypted:
                        if let loaded = try? card.load(passphrase: { [] }) {
                            record.created = loaded.record.created
                            record.label = label ?? loaded.record.label
                        }
                    case nil: break
                    }
                    try card.save(record, passphrase: passphrase)
                    return passphrase != nil
                }
            }
            guard let encrypted = stored else {
                Terminal.standardError.say(
                    "another gymcard command changed the stored card meanwhile; going by what it stored")
                continue
            }
            Terminal.standardError.write("Stored \(symbol.displayText).\n")
            if !encrypted { warnUnencrypted() }
            return
        }
        throw Failure(
            "the stored card kept changing while gymcard was storing this one (other gymcard commands at "
                + "work); nothing was stored: run the command again when they are done",
            status: .ioError)
    }

    /// Re-stores the card, which must currently be protected as `expected`, under a new passphrase
    /// (`nil`: unencrypted), keeping the record as it is.
    ///
    /// On a terminal the current passphrase is checked before the new one is asked for (a mistyped one
    /// is said at once, not after typing the new one twice); the card is then read again with it and
    /// rewritten holding the lock, so a change another gymcard made meanwhile is never undone.
    func rewrap(from expected: CardStore.Protection, newPassphrase: () throws -> [UInt8]?) throws {
        try Self.check(store.protection(), expected: expected)
        var current: [UInt8]?
        if expected == .passphrase {
            current = try withPassphraseTries { () throws -> [UInt8] in
                let given = try currentPassphrase(prompt: "Passphrase for the stored card: ")
                if !isScripted { _ = try store.load { given } }
                return given
            }
        }
        let passphrase = try newPassphrase()
        do {
            try whileLocked { card throws in
                try Self.check(card.protection(), expected: expected)
                let loaded = try card.load { current ?? [] }
                for warning in loaded.warnings { Terminal.standardError.say("warning: " + warning) }
                try card.rewrap(loaded.record, passphrase: passphrase)
            }
        } catch { throw Self.failure(error) }
    }

    /// Deletes the stored card (its backups too) holding the lock; returns whether there was one.
    func forget() throws -> Bool {
        try whileLocked { card in card.forget() }
    }

    /// Fails unless the card is protected as `expected`.
    private static func check(_ protection: CardStore.Protection?, expected: CardStore.Protection) throws {
        switch protection {
        case nil: throw Self.failure(VaultError.noCard)
        case .some(let current) where current != expected:
            throw Self.failure(
                expected == .passphrase ? VaultError.notEncrypted : VaultError.alreadyEncrypted)
        default: break
        }
    }

    /// Runs `body` holding the store's lock, saying once when another gymcard holds it.
    private func whileLocked<Result>(_ body: (CardStore.Locked) throws -> Result) throws -> Result {
        do {
            return try store.whileLocked(
                whenBusy: {
                    Terminal.standardError.say(
                        "waiting for another gymcard command that is changing the stored card")
                }, body)
        } catch let error as VaultError where error != .wrongPassphrase {
            throw Self.failure(error)
        }
    }

    var isScripted: Bool { passphrases?.isScripted ?? false }

    /// The card's current passphrase, from the script's file or descriptor or the terminal.
    ///
    /// - Throws: ``PassphraseOptions/EmptyPassphrase`` when it is empty.
    func currentPassphrase(prompt: String) throws -> [UInt8] {
        let file = passphrases?.passphraseFile
        let descriptor = passphrases?.passphraseDescriptor
        let passphrase =
            isScripted
            ? try scriptedPassphrase.value {
                try PassphraseOptions.read(file: file, descriptor: descriptor, prompt: "")
            }
            : try PassphraseOptions.read(file: nil, descriptor: nil, prompt: prompt)
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

    /// The script's passphrase as the card's new one (the card had none): the same bytes a later plan
    /// may use as the current one.
    private func scriptedNewPassphrase() throws -> [UInt8] {
        let file = passphrases?.passphraseFile
        let descriptor = passphrases?.passphraseDescriptor
        let passphrase = try scriptedPassphrase.value {
            try PassphraseOptions.read(file: file, descriptor: descriptor, prompt: "")
        }
        guard !passphrase.isEmpty else {
            throw PassphraseOptions.EmptyPassphrase(
                file: file, descriptor: descriptor, alternative: offersNoPassphrase ? "--no-passphrase" : nil)
        }
        return passphrase
    }

    /// A value read on first use and kept (a class, so that the struct's methods can fill it).
    private final class ReadOnce {
        private var stored: [UInt8]?

        func value(_ read: () throws -> [UInt8]) throws -> [UInt8] {
            if let stored { return stored }
            let value = try read()
            stored = value
            return value
        }
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

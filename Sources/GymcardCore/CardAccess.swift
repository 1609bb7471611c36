import CardVault
import Codabar
import Storage

/// The stored card's use cases: unlocking it (up to three tries on a terminal, one otherwise), storing an
/// ID (`set`, `scan --save`), adding, changing or removing its passphrase, and forgetting it.
///
/// A use case that changes the card reads it and writes it holding the store's lock, so two gymcard
/// processes never interleave (a `set` that read under the old passphrase cannot write after a
/// `passphrase change`). Every passphrase is asked for before the lock is taken, never while holding it:
/// a second gymcard then waits only for the first one's scrypt and writes (seconds), never for a person
/// at a prompt, and a script never hangs behind someone's open terminal.
public struct CardAccess: Sendable {
    /// The card's files.
    public let store: CardStore
    private let passphrases: Passphrases
    /// Says notices to the person (retries, waiting for another gymcard, the card file's warnings).
    private let say: @Sendable (String) -> Void
    /// The passphrase a script gave, read once: a descriptor cannot be read twice.
    private let scripted = ReadOnce()
    /// The scrypt work factor of what is written (lower only in tests).
    private let workFactor: Int

    /// The card in `context`'s data folder, with passphrases from `passphrases`.
    public init(context: Context, passphrases: Passphrases) {
        self.init(context: context, passphrases: passphrases, workFactor: AgeFile.defaultWorkFactor)
    }

    /// The same writing with another work factor, for tests.
    init(context: Context, passphrases: Passphrases, workFactor: Int) {
        store = CardStore(directories: context.directories)
        self.passphrases = passphrases
        say = context.warn
        self.workFactor = workFactor
    }

    /// The stored card, asking for the passphrase when it has one. On a terminal, a wrong or an empty
    /// passphrase is one failed try of three.
    public func unlock() throws -> CardStore.Loaded {
        try withTries { () throws -> CardStore.Loaded in
            let card = try store.load { try current() }
            for warning in card.warnings { say("warning: " + warning) }
            return card
        }
    }

    /// Stores `symbol`: with the card's current passphrase when it has one, otherwise as asked
    /// (`noPassphrase`, a scripted passphrase, or a new one typed twice). Returns whether it is encrypted.
    ///
    /// The plan (which passphrase to ask for) follows how the card is stored; the passphrases are asked
    /// for, then the lock is taken and the card read and written. When another gymcard changed how the
    /// card is stored in between, the plan is made again, as if this command had started after it: a
    /// second first-time `set` then finds the first one's card and needs its passphrase.
    public func store(_ symbol: CodabarSymbol, label: String?, noPassphrase: Bool) throws -> Bool {
        for _ in 1...3 {
            let planned = store.protection()
            if planned == .passphrase, noPassphrase { throw CardAccessProblem.cardHasPassphrase }
            var newPassphrase: [UInt8]?
            switch planned {
            case .passphrase: break
            case .unencrypted:
                if passphrases.isScripted, !noPassphrase { newPassphrase = try scriptedNew() }
            case nil:
                if !noPassphrase {
                    guard passphrases.isScripted || passphrases.canAsk() else {
                        throw PassphraseProblem.noTerminalToChoose
                    }
                    newPassphrase = passphrases.isScripted ? try scriptedNew() : try passphrases.new(say: say)
                }
            }
            let stored = try withTries { () throws -> Bool? in
                let current = planned == .passphrase ? try current() : nil
                return try whileLocked { card throws -> Bool? in
                    guard card.protection() == planned else { return nil }
                    var record = CardRecord(symbol: symbol, label: label)
                    var passphrase = newPassphrase
                    let loaded: CardStore.Loaded?
                    switch planned {
                    case .passphrase:
                        loaded = try card.load { current ?? [] }
                        passphrase = current
                    case .unencrypted: loaded = try? card.load(passphrase: { [] })
                    case nil: loaded = nil
                    }
                    if let loaded {
                        if planned == .passphrase {
                            for warning in loaded.warnings { say("warning: " + warning) }
                        }
                        record.created = loaded.record.created
                        record.label = label ?? loaded.record.label
                    }
                    try card.save(record, passphrase: passphrase)
                    return passphrase != nil
                }
            }
            guard let encrypted = stored else {
                say("another gymcard command changed the stored card meanwhile; going by what it stored")
                continue
            }
            return encrypted
        }
        throw CardAccessProblem.keptChanging
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
        try whileLocked { card throws in
            try Self.check(card.protection(), expected: expected)
            let loaded = try card.load { current ?? [] }
            for warning in loaded.warnings { say("warning: " + warning) }
            try card.rewrap(loaded.record, passphrase: passphrase)
        }
    }

    /// Deletes the stored card (its backups too) holding the lock.
    ///
    /// - Throws: ``CardVault/VaultError/noCard`` when there was none.
    public func forget() throws {
        guard try whileLocked({ card in card.forget() }) else { throw VaultError.noCard }
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

    /// Runs `attempt` up to three times on a terminal (once otherwise) while it fails with a wrong or an
    /// empty passphrase, saying how many tries are left.
    private func withTries<Result>(_ attempt: () throws -> Result) throws -> Result {
        let tries = passphrases.isScripted || !passphrases.canAsk() ? 1 : 3
        for number in 1..<tries {
            do {
                return try attempt()
            } catch VaultError.wrongPassphrase {
                say("wrong passphrase; try again (\(tries - number) left)")
            } catch PassphraseProblem.empty {
                say("the passphrase is empty; type it again (\(tries - number) left)")
            }
        }
        return try attempt()
    }

    /// Runs `body` holding the store's lock, saying once when another gymcard holds it.
    private func whileLocked<Result>(_ body: (CardStore.Locked) throws -> Result) throws -> Result {
        try store.whileLocked(
            workFactor: workFactor,
            whenBusy: { say("waiting for another gymcard command that is changing the stored card") }, body)
    }

    /// The card's current passphrase, from the script (read once) or the terminal.
    ///
    /// - Throws: ``PassphraseProblem/empty(_:noneOffered:)`` when it is empty.
    private func current() throws(PassphraseProblem) -> [UInt8] {
        let origin = passphrases.script ?? .terminal
        let passphrase =
            passphrases.isScripted
            ? try scripted.value { () throws(PassphraseProblem) in try passphrases.read(origin, prompt: "") }
            : try passphrases.read(.terminal, prompt: "Passphrase for the stored card: ")
        guard !passphrase.isEmpty else { throw .empty(origin, noneOffered: false) }
        return passphrase
    }

    /// The script's passphrase as the card's new one (the card had none): the same bytes a later plan
    /// may use as the current one.
    private func scriptedNew() throws(PassphraseProblem) -> [UInt8] {
        let origin = passphrases.script ?? .terminal
        let passphrase = try scripted.value { () throws(PassphraseProblem) in
            try passphrases.read(origin, prompt: "")
        }
        guard !passphrase.isEmpty else { throw .empty(origin, noneOffered: passphrases.offersNone) }
        return passphrase
    }

    /// A value read on first use and kept (a class, so that the struct's methods can fill it).
    private final class ReadOnce: @unchecked Sendable {
        private var stored: [UInt8]?

        func value(_ read: () throws(PassphraseProblem) -> [UInt8]) throws(PassphraseProblem) -> [UInt8] {
            if let stored { return stored }
            let value = try read()
            stored = value
            return value
        }
    }
}

/// Why the card was not stored; neutral: the CLI adds what to do.
public enum CardAccessProblem: Error, Equatable, CustomStringConvertible {
    /// Asked to store without a passphrase, but the stored card has one.
    case cardHasPassphrase
    /// Other gymcard processes kept changing how the card is stored: nothing was stored.
    case keptChanging

    /// What happened, without advice.
    public var description: String {
        switch self {
        case .cardHasPassphrase: "the stored card has a passphrase"
        case .keptChanging:
            "the stored card kept changing while gymcard was storing this one (other gymcard commands at "
                + "work); nothing was stored"
        }
    }
}

import CardVault
import CivilTime
import Codabar
import GymcardCore
import Symbologies
import TerminalText

/// The stored card's use cases: unlocking it (up to three tries on a terminal, one otherwise), storing an
/// ID (`set`, `scan --save`), changing its label, bringing back the previous card, adding, changing or
/// removing its passphrase, and forgetting it (the changes in place to the stored card: CardEditing.swift).
///
/// A use case that changes the card reads it and writes it holding the store's lock, so two gymcard
/// processes never interleave (a `set` that read under the old passphrase cannot write after a
/// `passphrase change`). Every passphrase is asked for before the lock is taken, never while holding it:
/// a second gymcard then waits only for the first one's scrypt and writes (seconds), never for a person
/// at a prompt, and a script never hangs behind someone's open terminal.
public struct CardAccess: Sendable {
    /// The card's files.
    public let store: CardStore
    let passphrases: Passphrases
    /// Says notices to the person (retries, waiting for another gymcard, the card file's warnings).
    let say: @Sendable (String) -> Void
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

    /// Stores a Codabar `symbol` as ``store(_:label:noPassphrase:)-(BarcodeContent,_,_)`` does.
    public func store(_ symbol: CodabarSymbol, label: String?, noPassphrase: Bool) throws -> Bool {
        try store(CardRecord(symbol: symbol).content(), label: label, noPassphrase: noPassphrase)
    }

    /// Stores `content` as ``store(_:label:noPassphrase:confirmReplacing:)`` does, never asking before
    /// replacing another card. Returns whether it is encrypted.
    public func store(_ content: BarcodeContent, label: String?, noPassphrase: Bool) throws -> Bool {
        try store(content, label: label, noPassphrase: noPassphrase, confirmReplacing: nil).encrypted
    }

    /// What storing a card did.
    public struct Stored: Equatable, Sendable {
        /// Whether the card was written (false: `confirmReplacing` said to keep the stored card).
        public var written: Bool
        /// Whether the card is encrypted.
        public var encrypted: Bool
        /// Whether it replaced a card with another ID or symbology, which is now the previous card
        /// (``restore()`` brings it back).
        public var replacedAnother: Bool

        /// The question asked before replacing `stored`, a card with another ID (terminal-safe): it is named
        /// by its label and when it was stored, never by its ID.
        public static func replaceQuestion(_ stored: CardRecord) -> String {
            let name = stored.label.map { "“\($0)”, " } ?? ""
            return
                ("Replace the stored card (\(name)stored \(LocalTime.dateAndClock(stored.updated))), which has "
                + "another ID? It is kept as the previous card. [y/N] ").terminalSafe
        }

        /// What `set` and `scan --save` say (terminal-safe lines): `Stored 9051-23456.` (`Stored GYM0042A7
        /// (Code 128).` for another symbology), and after replacing another card where it is kept.
        public func summary(of content: BarcodeContent) -> String {
            let kind = content.symbology == .codabar ? "" : " (\(content.symbology.displayName))"
            let kept = replacedAnother ? Self.keptNotice + "\n" : ""
            return "Stored \(content.displayText.terminalSafe)\(kind).\n" + kept
        }

        /// The line to say after replacing another card: where it went and how to get it back.
        public static let keptNotice =
            "gymcard: the card it replaced is kept as the previous card; `gymcard card --restore` brings it back"
    }

    /// Stores `content` (the card's symbology and exact text): with the card's current passphrase when it
    /// has one, otherwise as asked (`noPassphrase`, a scripted passphrase, or a new one typed twice). A
    /// `label` names the card, an empty one clears its label, `nil` keeps the label of the same card stored
    /// again (a card with another ID starts without one). The card it replaces becomes the previous card.
    ///
    /// When the stored card holds another ID and `confirmReplacing` is given, it is asked (with the
    /// stored card, opened) whether to replace it; when it says no, nothing is written. Like a passphrase,
    /// the question is asked before the lock is taken; the card is then read again holding the lock, and
    /// asked about again if another gymcard replaced it meanwhile.
    ///
    /// The plan (which passphrase to ask for) follows how the card is stored; the passphrases are asked
    /// for, then the lock is taken and the card read and written. When another gymcard changed how the
    /// card is stored in between, the plan is made again, as if this command had started after it: a
    /// second first-time `set` then finds the first one's card and needs its passphrase.
    ///
    /// `catima` is what a card imported from Catima had beyond its barcode (its encoding, header colour
    /// and card ID); the same card stored again without them keeps the ones it had.
    public func store(
        _ content: BarcodeContent, label: String?, noPassphrase: Bool,
        confirmReplacing: ((CardRecord) -> Bool)?, catima: CardRecord.CatimaFields? = nil
    ) throws -> Stored {
        let newLabel = label.map { $0.isEmpty ? nil : $0 }
        // The card the person agreed to replace, and the passphrase that opened it (not asked twice).
        var agreed: (record: CardRecord, passphrase: [UInt8]?)?
        for _ in 1...4 {
            let planned = store.protection()
            if planned == .passphrase, noPassphrase { throw CardAccessProblem.cardHasPassphrase }
            // A passphrase needs libcrypto: said before one is asked, or the store's folder made.
            if planned == .passphrase || !noPassphrase && (planned == nil || passphrases.isScripted) {
                try AgeFile.requireCrypto()
            }
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
            let outcome = try withTries { () throws -> StoreStep in
                var current: [UInt8]?
                if planned == .passphrase { current = try agreed?.passphrase ?? self.current() }
                agreed?.passphrase = nil
                return try whileLocked { card throws -> StoreStep in
                    guard card.protection() == planned else { return .planAgain }
                    var record = CardRecord(content: content, label: newLabel ?? nil, catima: catima)
                    var passphrase = newPassphrase
                    let loaded: CardStore.Loaded?
                    switch planned {
                    case .passphrase:
                        loaded = try card.loadIfPresent { current ?? [] }
                        passphrase = current
                    case .unencrypted: loaded = try card.loadIfPresent(passphrase: { [] })
                    case nil: loaded = nil
                    }
                    var replacesAnother = false
                    if let loaded {
                        replacesAnother = (try? loaded.record.content()) != content
                        if replacesAnother, confirmReplacing != nil, loaded.record != agreed?.record {
                            return .ask(loaded.record, passphrase: current)
                        }
                        if planned == .passphrase {
                            for warning in loaded.warnings { say("warning: " + warning) }
                        }
                        // The same card stored again keeps its label and age; another card is a new one.
                        if !replacesAnother {
                            record.created = loaded.record.created
                            record.label = newLabel ?? loaded.record.label
                            record.catima = catima ?? loaded.record.catima
                        }
                    }
                    // The same card again leaves the previous card (another one) as it was.
                    try card.save(
                        record, passphrase: passphrase, keepingPrevious: loaded != nil && !replacesAnother)
                    return .stored(
                        Stored(written: true, encrypted: passphrase != nil, replacedAnother: replacesAnother))
                }
            }
            switch outcome {
            case .stored(let stored): return stored
            case .planAgain:
                say("another gymcard command changed the stored card meanwhile; going by what it stored")
            case .ask(let record, let passphrase):
                guard let confirmReplacing, confirmReplacing(record) else {
                    return Stored(written: false, encrypted: planned == .passphrase, replacedAnother: false)
                }
                agreed = (record, passphrase)
            }
        }
        throw CardAccessProblem.keptChanging
    }

    /// A step of ``store(_:label:noPassphrase:confirmReplacing:)`` holding the lock.
    private enum StoreStep {
        case stored(Stored)
        /// The card's protection changed since the plan was made.
        case planAgain
        /// Another card is stored: ask the person, outside the lock, before replacing it.
        case ask(CardRecord, passphrase: [UInt8]?)
    }

    /// Runs `attempt` up to three times on a terminal (once otherwise) while it fails with a wrong or an
    /// empty passphrase, saying how many tries are left.
    func withTries<Result>(_ attempt: () throws -> Result) throws -> Result {
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
    func whileLocked<Result>(_ body: (CardStore.Locked) throws -> Result) throws -> Result {
        try store.whileLocked(
            workFactor: workFactor,
            whenBusy: { say("waiting for another gymcard command that is changing the stored card") }, body)
    }

    /// The card's current passphrase, from the script (read once) or the terminal.
    ///
    /// - Throws: ``PassphraseProblem/empty(_:noneOffered:)`` when it is empty.
    func current() throws(PassphraseProblem) -> [UInt8] {
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
    func scriptedNew() throws(PassphraseProblem) -> [UInt8] {
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
    /// No previous card to bring back: only one card was stored since the last passphrase change or
    /// `forget`, or the stored card has not changed since.
    case noPreviousCard

    /// What happened, without advice.
    public var description: String {
        switch self {
        case .cardHasPassphrase: "the stored card has a passphrase"
        case .keptChanging:
            "the stored card kept changing while gymcard was storing this one (other gymcard commands at "
                + "work); nothing was stored"
        case .noPreviousCard:
            "no previous card is kept (one is kept each time set, scan --save, import or card --label "
                + "changes the card)"
        }
    }
}

import CardVault
import Catima
import GymcardCore
import Storage
import Symbologies
import TerminalText

/// `import`: a card from Catima (a zip export with its password, a CSV of version 1 or 2, or a share link)
/// stored as `set` stores one. Nothing is changed until the card is chosen and valid.
public enum CardImport {
    /// What `import` reads.
    public enum Source: Equatable, Sendable {
        /// A share link given as the argument.
        case link(String)
        /// A file: a Catima zip or CSV, or a text file holding a share link.
        case file(String)
        /// Standard input (`-`), holding any of those.
        case standardInput

        /// The source an argument names: `-`, a link (`https://…`), else a file.
        public init(argument: String) {
            if argument == "-" {
                self = .standardInput
            } else if CardImport.looksLikeLink(argument) {
                self = .link(argument)
            } else {
                self = .file(argument)
            }
        }

        /// The source of `import`'s argument; without one, standard input when it is not a terminal, else
        /// the link asked with `ask` (`nil`: no terminal; what it throws, Ctrl-D, is a usage problem).
        public init(argument: String?, standardInputIsTerminal: Bool, ask: (String) throws -> [UInt8]?)
            throws(CatimaProblem)
        {
            if let argument {
                self.init(argument: argument)
            } else if !standardInputIsTerminal {
                self = .standardInput
            } else {
                let link = try CatimaProblem.asking { try ask("Catima share link: ") }
                self = .link(String(decoding: link ?? [], as: UTF8.self))
            }
        }

        /// How messages name it.
        var name: String {
            switch self {
            case .link: "the link"
            case .file(let path): path
            case .standardInput: "standard input"
            }
        }
    }

    /// Said when the link was `import`'s argument: the card's ID has been in the process list.
    public static let linkOnCommandLine =
        "warning: the link was on the command line, where other users' `ps` and the shell's history see the "
        + "card's ID; next time give it on standard input or at the prompt (gymcard import, then paste it)"

    /// The largest file read: a Catima zip holds the cards' photos too.
    static let maximumFileBytes = 256 << 20

    static func looksLikeLink(_ text: some StringProtocol) -> Bool {
        let start = text.drop { $0.isWhitespace }.prefix(8).lowercased()
        return start.hasPrefix("https://") || start.hasPrefix("http://")
    }

    /// The cards `source` holds (one for a link). An encrypted zip is opened with `password` (a file's
    /// line is tried once; on a terminal, three tries).
    public static func cards(in source: Source, password: ZipPassword, say: (String) -> Void)
        throws(CatimaProblem) -> [CatimaCard]
    {
        let name = source.name
        if case .link(let link) = source { return [try linkCard(link)] }
        let bytes: [UInt8]
        do throws(StorageError) {
            switch source {
            case .link: bytes = []
            case .file(let path):
                guard let read = try FileContents.read(path, limitBytes: maximumFileBytes, streams: true)
                else {
                    throw StorageError.notFound(path: path)
                }
                bytes = read
            case .standardInput:
                bytes = try FileContents.readStandardInput(limitBytes: maximumFileBytes) ?? []
            }
        } catch { throw CatimaProblem(error, reading: true) }
        // A link saved by an editor may start with a UTF-8 byte-order mark and end with CRLF.
        let withoutMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if !CatimaZip.looksLikeZip(bytes), bytes.count < 64 << 10,
            let text = String(validating: withoutMark, as: UTF8.self), looksLikeLink(text)
        {
            return [try linkCard(text)]
        }
        var given: String?
        let tries = password.file == nil && password.canAsk() ? 3 : 1
        var attempt = 0
        while true {
            do {
                return try CatimaExport.cards(in: bytes, password: given).cards
            } catch .passwordNeeded where given == nil {
                given = try password.current(for: name)
            } catch .wrongPassword where attempt + 1 < tries {
                attempt += 1
                say("wrong password; try again (\(tries - attempt) left)")
                given = try password.current(for: name)
            } catch {
                throw CatimaProblem(error, in: name)
            }
        }
    }

    private static func linkCard(_ link: String) throws(CatimaProblem) -> CatimaCard {
        do { return try CatimaShareLink.card(from: link) } catch {
            throw CatimaProblem(error, in: "the link")
        }
    }

    /// The card to store: the only one, the one of `store` (`--store`), or one a person picks when `ask`
    /// can ask (it returns `nil` without a terminal). Only cards with a barcode gymcard draws are offered:
    /// when one is, it is taken (and said through `list`); when none is, the problem says so. Otherwise the
    /// cards are listed through `list` and the problem says to choose with `--store`; on a terminal a
    /// wrong answer is asked again (up to ``maximumAnswers`` times).
    public static func choose(
        from cards: [CatimaCard], store: String?, list: (String) -> Void, ask: (String) throws -> String?
    ) throws(CatimaProblem) -> CatimaCard {
        var candidates = cards
        if let store {
            candidates = CatimaCSV.Contents(version: 2, cards: cards, groups: []).cards(store: store)
            guard !candidates.isEmpty else {
                var stores: [String] = []
                for card in cards where !stores.contains(card.store) { stores.append(card.store) }
                throw CatimaProblem(
                    "no card of the store \(store) here; its stores: \(stores.joined(separator: ", "))",
                    kind: .usage)
            }
        }
        // One card (the file's only one, or --store's): storing it says why it cannot be drawn, if so.
        guard candidates.count > 1 else { return candidates[0] }
        let drawable = candidates.filter { (try? $0.barcodeContent()) != nil }
        let others = candidates.count - drawable.count
        guard !drawable.isEmpty else {
            throw CatimaProblem(
                "none of the \(candidates.count) cards has a barcode gymcard can draw (a type of "
                    + "\(drawnNames) and a text valid for it); nothing was changed", kind: .badData)
        }
        if drawable.count == 1 {
            list(
                "taking \(drawable[0].store.terminalSafe) (\(typeName(drawable[0]))\(lineNote(drawable[0]))), "
                    + "the only card of \(candidates.count) with a barcode gymcard can draw")
            return drawable[0]
        }
        list("\(drawable.count) cards with a barcode gymcard can draw:")
        let note =
            others > 0
            ? "(\(others) other \(others == 1 ? "card has" : "cards have") no barcode gymcard can draw)" : nil
        let outcome: NumberedChoice.Outcome
        do {
            outcome = try NumberedChoice.pick(
                drawable.map { "\($0.store) — \(typeName($0))\(lineNote($0))" }, question: "Which card?",
                note: note, list: list, say: list,
                ask: { question in try CatimaProblem.asking { try ask(question) } })
        } catch let problem as CatimaProblem {
            throw problem
        } catch {
            throw CatimaProblem("\(error)", kind: .usage)
        }
        switch outcome {
        case .picked(let index): return drawable[index]
        case .unanswered:
            throw CatimaProblem(
                "there are \(drawable.count) cards (listed above)", kind: .usage,
                remedy: store == nil ? .chooseStore : .chooseOnTerminal)
        case .noneOnList:
            throw CatimaProblem(
                "no card chosen (give a number from 1 to \(drawable.count)); nothing was changed",
                kind: .usage)
        }
    }

    private static var drawnNames: String {
        Symbology.allCases.map(\.displayName).joined(separator: ", ")
    }

    private static func typeName(_ card: CatimaCard) -> String {
        switch card.barcodeType {
        case .none: "no barcode"
        case .symbology(let symbology): symbology.displayName
        case .unsupported(let name): "\(name.terminalSafe) (gymcard cannot draw it)"
        }
    }

    private static func lineNote(_ card: CatimaCard) -> String { card.line > 0 ? ", line \(card.line)" : "" }

    /// What was stored, for the line the command says.
    public struct Stored: Sendable {
        /// The ID as people read it (`9051-23456`).
        public var displayText: String
        /// The label stored: the card's store name in Catima, or `nil` for the name `export` gives a card
        /// without a label.
        public var label: String?
        /// The symbology's name for people.
        public var symbology: String
        /// Whether the card is encrypted.
        public var encrypted: Bool
        /// Whether it replaced another card, now the previous one.
        public var replacedAnother = false

        /// The lines `import` says (terminal-safe): `Stored 9051-23456 (Gold's Gym, Codabar).`, and after
        /// replacing another card where it is kept.
        public var summary: String {
            let stored = "Stored \(displayText) (\(label.map { $0 + ", " } ?? "")\(symbology)).".terminalSafe
            return replacedAnother ? stored + "\n" + CardAccess.Stored.keptNotice : stored
        }
    }

    /// Stores `card` as `set` does (its passphrase, backup and lock), saying through `say` what changed on
    /// the way: start/stop letters gymcard added to a bare Codabar value, a note it does not keep.
    ///
    /// The label is the card's store, except the name `export` gives a card without a label, so that a
    /// round trip keeps the card as it was.
    public static func store(
        _ card: CatimaCard, access: CardAccess, noPassphrase: Bool, say: (String) -> Void
    ) throws -> Stored {
        let content: BarcodeContent
        do { content = try card.barcodeContent() } catch { throw CatimaProblem(error, in: "the file") }
        let given = String(
            card.barcodeText.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        if content.symbology == .codabar, let first = given.first, let last = given.last,
            !("ABCDabcd".contains(first) && "ABCDabcd".contains(last))
        {
            say(
                "the Codabar value has no start/stop letters: gymcard added them as for a typed ID "
                    + "(A…B); Catima draws such a value as A…A")
        } else if content.symbology != .codabar, content.text != given {
            say(
                "the \(content.symbology.displayName) value is stored as gymcard normalizes it: \(Self.normalized(given, content))"
            )
        }
        if let note = CardSymbol.scanNote(for: content) { say(note) }
        if card.barcodeID != nil {
            say(
                "the card's barcode carries its own value (not the number Catima shows): gymcard draws that, "
                    + "and keeps the number for export")
        }
        if !card.note.isEmpty { say("the card's note is not kept: gymcard keeps the barcode and a label") }
        let defaultName = CatimaCard(exporting: content, label: nil).store
        let label = card.store == defaultName ? nil : card.store
        // What the card had in Catima beyond its barcode, given back by export and share as it was.
        let kept = CardRecord.CatimaFields(
            encoding: try? card.textEncoding(), headerColor: card.headerColor,
            cardID: card.barcodeID != nil && card.barcodeID != card.cardID ? card.cardID : nil)
        let stored = try access.store(
            content, label: label, noPassphrase: noPassphrase, confirmReplacing: nil, catima: kept)
        return Stored(
            displayText: content.displayText, label: label, symbology: content.symbology.displayName,
            encrypted: stored.encrypted, replacedAnother: stored.replacedAnother)
    }

    /// What gymcard's normalization did to a value, in words: only what happened.
    static func normalized(_ given: String, _ content: BarcodeContent) -> String {
        var changes: [String] = []
        if content.symbology != .codabar,
            content.text.uppercased() != content.text || given.uppercased() != given,
            content.text == given.uppercased()
        {
            changes.append("letters upper-cased")
        }
        if content.text.count == given.count + 1, content.text.hasPrefix(given) {
            changes.append("its check digit added")
        }
        if content.text.count + 1 == given.count, given.hasPrefix("0"), content.symbology == .upca {
            changes.append("an EAN-13 beginning with 0 kept as the UPC-A it is")
        }
        return changes.isEmpty ? "as \(content.displayText)" : changes.joined(separator: ", ")
    }
}

import CardVault
import Codabar
import Foundation
import Symbologies
import Synchronization
import TestSupport
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import GymcardCore

/// The stored card's use cases in-process, on real vault files in a temporary XDG data folder.
@Suite struct CardAccessTests {
    /// A context whose data folder is `directory`, its notices collected in `said`.
    private static func context(_ directory: TemporaryDirectory, said: Said) throws -> Context {
        try Context(environment: ["XDG_DATA_HOME": directory.path, "HOME": directory.path], online: nil) {
            line in said.lines.withLock { $0.append(line) }
        }
    }

    /// Passphrases typed on a terminal: the answers in order (`nil`: there is no terminal).
    private static func typed(_ answers: [String]?, asked: Said = Said()) -> Passphrases {
        let queue = Mutex(answers ?? [])
        return Passphrases(
            ask: { prompt in
                asked.lines.withLock { $0.append(prompt) }
                return queue.withLock { $0.isEmpty ? nil : Array($0.removeFirst().utf8) }
            }, canAsk: { answers != nil })
    }

    /// Passphrases from a script's file holding `text`.
    private static func scripted(_ text: String, in directory: TemporaryDirectory, name: String = "pass")
        throws -> Passphrases
    {
        let path = directory.path + "/" + name
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return Passphrases(script: .file(path), offersNone: true, ask: { _ in nil }, canAsk: { false })
    }

    private static let symbol = try? CodabarSymbol(normalizing: "905123456")

    @Test func aScriptedFirstCardIsEncryptedAndOnlyItsPassphraseOpensIt() throws {
        let directory = try TemporaryDirectory()
        let said = Said()
        let context = try Self.context(directory, said: said)
        let symbol = try #require(Self.symbol)
        let access = CardAccess(quick: context, passphrases: try Self.scripted("open sesame", in: directory))
        #expect(try access.store(symbol, label: "Gym", noPassphrase: false))
        #expect(access.store.protection() == .passphrase)
        #expect(
            !(try String(contentsOfFile: access.store.encryptedPath, encoding: .isoLatin1)).contains(
                "905123456"))

        let card = try access.unlock()
        #expect(try card.record.symbol() == symbol)
        #expect(card.record.label == "Gym")
        // A script's wrong passphrase is tried once: no retry is offered.
        let wrong = CardAccess(
            quick: context, passphrases: try Self.scripted("guess", in: directory, name: "w"))
        #expect(throws: VaultError.wrongPassphrase) { try wrong.unlock() }
        #expect(said.lines.withLock { $0.isEmpty })
    }

    @Test func onATerminalAWrongOrEmptyPassphraseIsOneTryOfThree() throws {
        let directory = try TemporaryDirectory()
        let said = Said()
        let context = try Self.context(directory, said: said)
        let symbol = try #require(Self.symbol)
        let first = CardAccess(quick: context, passphrases: Self.typed(["right", "right"]))
        #expect(try first.store(symbol, label: nil, noPassphrase: false))

        let asked = Said()
        let access = CardAccess(
            quick: context, passphrases: Self.typed(["wrong", "", "right"], asked: asked))
        #expect(try access.unlock().record.symbol() == symbol)
        #expect(
            said.lines.withLock { $0 }
                == [
                    "wrong passphrase; try again (2 left)", "the passphrase is empty; type it again (1 left)",
                ])
        #expect(asked.lines.withLock { $0.count } == 3)

        let hopeless = CardAccess(quick: context, passphrases: Self.typed(["a", "b", "c", "right"]))
        #expect(throws: VaultError.wrongPassphrase) { try hopeless.unlock() }
    }

    @Test func storingWithoutPassphraseOverAnEncryptedCardIsRefusedAndKeepsIt() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(directory, said: Said())
        let symbol = try #require(Self.symbol)
        let access = CardAccess(quick: context, passphrases: try Self.scripted("kept", in: directory))
        _ = try access.store(symbol, label: nil, noPassphrase: false)
        let before = try Data(contentsOf: URL(fileURLWithPath: access.store.encryptedPath))
        let other = try CodabarSymbol(normalizing: "111111111")
        #expect(throws: CardAccessProblem.cardHasPassphrase) {
            try access.store(other, label: nil, noPassphrase: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: access.store.encryptedPath)) == before)
    }

    @Test func aFirstCardWithNoTerminalAndNoScriptNeedsAPassphraseOrNone() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(directory, said: Said())
        let symbol = try #require(Self.symbol)
        let access = CardAccess(quick: context, passphrases: Self.typed(nil))
        #expect(throws: PassphraseProblem.noTerminalToChoose) {
            try access.store(symbol, label: nil, noPassphrase: false)
        }
        #expect(access.store.protection() == nil)
        #expect(try access.store(symbol, label: nil, noPassphrase: true) == false)
        #expect(access.store.protection() == .unencrypted)

        let empty = CardAccess(quick: context, passphrases: try Self.scripted("", in: directory))
        #expect(throws: PassphraseProblem.empty(.file(directory.path + "/pass"), noneOffered: true)) {
            try empty.store(symbol, label: nil, noPassphrase: false)
        }
    }

    /// Another gymcard stores a card with its own passphrase while this one's person types a new one:
    /// the plan is made again, and this store then needs (and keeps) the other one's passphrase.
    @Test func aCardStoredMeanwhileIsTakenAsTheNewPlan() throws {
        let directory = try TemporaryDirectory()
        let said = Said()
        let context = try Self.context(directory, said: said)
        let symbol = try #require(Self.symbol)
        let theirs = try CodabarSymbol(normalizing: "222222222")
        let other = CardAccess(quick: context, passphrases: try Self.scripted("theirs", in: directory))
        let answers = Mutex(["mine", "mine", "theirs"])
        let access = CardAccess(
            quick: context,
            passphrases: Passphrases(
                ask: { _ in
                    // While the new passphrase is repeated, before this one takes the lock, the other
                    // gymcard stores its card.
                    if answers.withLock({ $0.count }) == 2 {
                        _ = try? other.store(theirs, label: "Theirs", noPassphrase: false)
                    }
                    return answers.withLock { $0.isEmpty ? nil : Array($0.removeFirst().utf8) }
                }, canAsk: { true }))
        // The first plan (no card: a new passphrase typed twice) is asked before the other card appears;
        // storing then finds it and plans again: the other card's passphrase is asked for and kept.
        #expect(try access.store(symbol, label: nil, noPassphrase: false))
        #expect(
            said.lines.withLock { $0 }
                == ["another gymcard command changed the stored card meanwhile; going by what it stored"])
        let card = try other.unlock()
        #expect(try card.record.symbol() == symbol)
        // Another ID is another card: it starts without the label of the card it replaced.
        #expect(card.record.label == nil)
    }

    @Test func thePassphraseIsChangedRemovedAndSetAgainAndTheCardForgotten() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(directory, said: Said())
        let symbol = try #require(Self.symbol)
        let first = CardAccess(quick: context, passphrases: try Self.scripted("old", in: directory))
        _ = try first.store(symbol, label: nil, noPassphrase: false)

        var change = try Self.scripted("old", in: directory)
        try "new\n".write(toFile: directory.path + "/new", atomically: true, encoding: .utf8)
        change.newScript = .file(directory.path + "/new")
        try CardAccess(quick: context, passphrases: change).rewrap(from: .passphrase, encrypt: true)
        #expect(throws: VaultError.wrongPassphrase) { try first.unlock() }

        let remove = CardAccess(quick: context, passphrases: try Self.scripted("new", in: directory))
        #expect(throws: VaultError.alreadyEncrypted) { try remove.rewrap(from: .unencrypted, encrypt: true) }
        try remove.rewrap(from: .passphrase, encrypt: false)
        #expect(remove.store.protection() == .unencrypted)
        #expect(throws: VaultError.notEncrypted) { try remove.rewrap(from: .passphrase, encrypt: false) }

        let set = CardAccess(quick: context, passphrases: Self.typed(["again", "again", "again"]))
        try set.rewrap(from: .unencrypted, encrypt: true)
        #expect(try set.unlock().record.symbol() == symbol)

        try set.forget()
        #expect(set.store.protection() == nil)
        #expect(throws: VaultError.noCard) { try set.forget() }
        #expect(throws: VaultError.noCard) { try set.unlock() }
    }

    @Test func replacingAnotherIDIsAskedFirstAndAskedAgainWhenTheCardChangedMeanwhile() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(directory, said: Said())
        let access = CardAccess(quick: context, passphrases: Self.typed(nil))
        let ids = try ["111111111", "222222222", "905123456"].map {
            try BarcodeContent(symbology: .codabar, normalizing: $0)
        }
        _ = try access.store(ids[0], label: "Mine", noPassphrase: true)
        let asked = Mutex<[String]>([])

        // No: nothing is written, not even a backup.
        let declined = try access.store(ids[2], label: nil, noPassphrase: true) { stored in
            asked.withLock { $0.append(stored.id) }
            return false
        }
        #expect(declined.written == false)
        #expect(try access.unlock().record.id == "A111111111B")
        #expect(!FileManager.default.fileExists(atPath: access.store.plainPath + ".bak"))

        // Yes, but another gymcard stored a third card meanwhile: that one is asked about too.
        let other = CardAccess(quick: context, passphrases: Self.typed(nil))
        let stored = try access.store(ids[2], label: nil, noPassphrase: true) { card in
            asked.withLock { $0.append(card.id) }
            if card.id == "A111111111B" { _ = try? other.store(ids[1], label: nil, noPassphrase: true) }
            return true
        }
        #expect(stored == CardAccess.Stored(written: true, encrypted: false, replacedAnother: true))
        #expect(asked.withLock { $0 } == ["A111111111B", "A111111111B", "A222222222B"])
        #expect(try access.unlock().record.id == "A905123456B")
        #expect(try access.unlock().record.label == nil, "another card does not take the old one's label")

        // The same ID again is no replacement: nothing asked, and its label is kept unless given.
        let again = try access.store(ids[2], label: "Gym", noPassphrase: true) { _ in
            Issue.record("asked about the same ID")
            return false
        }
        #expect(again.replacedAnother == false)
        #expect(try access.unlock().record.label == "Gym")
        _ = try access.store(ids[2], label: nil, noPassphrase: true)
        #expect(try access.unlock().record.label == "Gym", "no label given: the same card keeps its own")
        _ = try access.store(ids[2], label: "", noPassphrase: true)
        #expect(try access.unlock().record.label == nil, "an empty label clears it")

        // The previous card is the other card, not a version of this one: restore swaps the two.
        _ = try access.restore()
        #expect(try access.unlock().record.id == "A222222222B")
        _ = try access.restore()
        #expect(try access.unlock().record.id == "A905123456B")
        #expect(try access.unlock().record.label == nil)
    }

    @Test func relabelKeepsTheRestAndWritesNothingWhenTheLabelIsAlreadyThat() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(directory, said: Said())
        let symbol = try #require(Self.symbol)
        let access = CardAccess(quick: context, passphrases: try Self.scripted("words", in: directory))
        _ = try access.store(try CodabarSymbol(normalizing: "111111111"), label: "Old", noPassphrase: false)
        _ = try access.store(symbol, label: "Gym", noPassphrase: false)
        let before = try access.unlock().record
        #expect(try access.relabel("Gym") == "the card is already labelled “Gym”")
        #expect(try access.relabel("Hokie Passport") == "the card is now labelled “Hokie Passport”")
        var after = try access.unlock().record
        #expect(after.label == "Hokie Passport")
        after.label = before.label
        #expect(after == before, "only the label changed")
        #expect(try access.relabel("") == "the card now has no label")
        #expect(try access.unlock().record.label == nil)
    }

    @Test func restoreNeedsADifferentPreviousCard() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(directory, said: Said())
        let symbol = try #require(Self.symbol)
        let access = CardAccess(quick: context, passphrases: try Self.scripted("old", in: directory))
        #expect(throws: VaultError.noCard) { try access.restore() }
        _ = try access.store(try CodabarSymbol(normalizing: "111111111"), label: nil, noPassphrase: false)
        #expect(throws: CardAccessProblem.noPreviousCard) { try access.restore() }
        _ = try access.store(symbol, label: nil, noPassphrase: false)
        // A passphrase change writes the card and its backup alike: no previous card is left to bring back.
        var change = try Self.scripted("old", in: directory)
        try "new\n".write(toFile: directory.path + "/new", atomically: true, encoding: .utf8)
        change.newScript = .file(directory.path + "/new")
        try CardAccess(quick: context, passphrases: change).rewrap(from: .passphrase, encrypt: true)
        #expect(throws: CardAccessProblem.noPreviousCard) { try access.restore() }
    }
}

extension CardAccess {
    /// A card access that writes with scrypt's work factor 2^10: a debug build takes seconds for 2^18.
    init(quick context: Context, passphrases: Passphrases) {
        self.init(context: context, passphrases: passphrases, workFactor: 10)
    }
}

/// Lines said, in order.
final class Said: Sendable {
    let lines = Mutex<[String]>([])
}

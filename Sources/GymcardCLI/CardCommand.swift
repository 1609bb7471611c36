import ArgumentParser
import CardVault
import CivilTime
import Codabar
import FoundationEssentials
import Glibc
import GymcardCore
import JSONOutput
import TerminalText

/// `gymcard card`: what is stored, with or without the passphrase.
struct CardCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Print what is stored: where the card is, whether it is encrypted, its label and ID.",
        discussion: """
            Without the passphrase (--locked, or no terminal and no --passphrase-file/--passphrase-fd), \
            only what the file system says: where the card is, whether it is encrypted and when it was \
            last written; nothing is kept in clear beside the age file. With the passphrase, or for a \
            card stored without one: the label, when it was created and updated, and the ID in both \
            forms (9051-23456 and A905123456B).

            --json prints one object: path, encrypted, written, and when unlocked label, id, \
            displayId, created, updated (ISO 8601 times in UTC; a missing label is null).
            """
    )

    @Flag(name: .long, help: "Print as one JSON object.")
    var json = false

    @Flag(name: .long, help: "Do not ask for the passphrase: only where the card is and when it was written.")
    var locked = false

    @OptionGroup var passphrases: PassphraseOptions

    func run(in context: Context) throws {
        let access = CardAccess(context: context, passphrases: passphrases.passphrases())
        guard let protection = access.store.protection() else { throw VaultError.noCard }
        let encrypted = protection == .passphrase
        let path = encrypted ? access.store.encryptedPath : access.store.plainPath
        var status = stat()
        let written =
            stat(path, &status) == 0 ? Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec)) : nil
        var record: CardRecord?
        let canUnlock = !encrypted || passphrases.isScripted || TerminalPrompt.isAvailable
        if !locked, canUnlock {
            record = try access.unlock().record
        }
        let now = context.clock.now
        if json {
            print(Self.json(path: path, encrypted: encrypted, written: written, record: record))
            return
        }
        var lines = [("Card", path + (encrypted ? " (encrypted with a passphrase)" : " (not encrypted)"))]
        if let written {
            lines.append(
                ("Written", LocalTime.dateAndClock(written) + " (" + Age.ago(from: written, to: now) + ")"))
        }
        if let record {
            let symbol = try? record.symbol()
            lines.append(("Label", record.label ?? "none (set one with gymcard set --label <text>)"))
            lines.append(("ID", symbol.map { "\($0.displayText) (\($0.text))" } ?? record.id))
            lines.append(("Created", LocalTime.dateAndClock(record.created)))
            lines.append(("Updated", LocalTime.dateAndClock(record.updated)))
        } else {
            lines.append(
                (
                    "ID",
                    locked
                        ? "locked (--locked)"
                        : "locked: give the passphrase with --passphrase-file or --passphrase-fd"
                ))
        }
        // The label and the path are the user's (or a card file's) text: shown terminal-safe.
        for (name, value) in lines { print((name + ":").padding(9) + value.terminalSafe) }
    }

    /// The `--json` object: explicit `null`s, times in ISO 8601 UTC.
    struct Summary: Encodable {
        var path: String
        var encrypted: Bool
        var written: Date?
        var record: CardRecord?

        enum Key: String, CodingKey { case path, encrypted, written, label, id, displayId, created, updated }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(path, forKey: .path)
            try container.encode(encrypted, forKey: .encrypted)
            try container.encode(written?.ISO8601Format(), forKey: .written)
            guard let record else { return }
            try container.encode(record.label, forKey: .label)
            try container.encode(record.id, forKey: .id)
            try container.encode((try? record.symbol())?.displayText ?? record.id, forKey: .displayId)
            try container.encode(record.created.ISO8601Format(), forKey: .created)
            try container.encode(record.updated.ISO8601Format(), forKey: .updated)
        }
    }

    static func json(path: String, encrypted: Bool, written: Date?, record: CardRecord?) -> String {
        JSONText.line(Summary(path: path, encrypted: encrypted, written: written, record: record))
    }
}

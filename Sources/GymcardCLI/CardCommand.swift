import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard card`: what is stored, with or without the passphrase.
struct CardCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Print what is stored: where the card is, whether it is encrypted, its label and ID.",
        discussion: """
            Without the passphrase (--locked, or no terminal and no --passphrase-file/--passphrase-fd), \
            only what the file system says: where the card is, whether it is encrypted and when it was \
            last written; nothing is kept in clear beside the age file. With the passphrase, or for a \
            card stored without one: the label, the barcode's symbology, when it was created and \
            updated, and the ID (a Codabar one in both forms, 9051-23456 and A905123456B).

            --json prints one object: path, encrypted, written, and when unlocked label, symbology (its \
            name for --symbology), id, displayId, created, updated (ISO 8601 times in UTC; a missing \
            label is null).
            """
    )

    @Option(
        name: [.short, .long],
        help: ArgumentHelp("Change the card's label, keeping the rest (\"\" removes it).", valueName: "text"))
    var label: String?

    @Flag(name: .long, help: "Swap the card with the previous one, each keeping its passphrase.")
    var restore = false

    func validate() throws {
        if label != nil, restore { throw ValidationError("give --label or --restore, not both") }
        guard label == nil && !restore || !json && !locked else {
            throw ValidationError(
                "--\(restore ? "restore" : "label") changes the card: give it without --json or --locked")
        }
    }

    @Flag(name: .long, help: "Print as one JSON object.")
    var json = false

    @Flag(name: .long, help: "Do not ask for the passphrase: only where the card is and when it was written.")
    var locked = false

    @OptionGroup var passphrases: PassphraseOptions

    func run(in context: Context) throws {
        let access = CardAccess(context: context, passphrases: passphrases.passphrases())
        if restore { return Terminal.standardError.say(try access.restore().notice) }
        if let label { return Terminal.standardError.say(try access.relabel(label)) }
        let report = try CardReport.read(access, locked: locked)
        if json {
            Terminal.standardOutput.line(report.json)
            return
        }
        let lines = try report.lines(
            now: context.clock.now,
            lockedReason: locked
                ? "locked (--locked)"
                : "locked: give the passphrase with --passphrase-file or --passphrase-fd",
            dateAndClock: { LocalTime.dateAndClock($0) })
        // The label and the path are the user's (or a card file's) text: shown terminal-safe.
        for (name, value) in lines {
            Terminal.standardOutput.line((name + ":").padding(9) + value.terminalSafe)
        }
    }
}

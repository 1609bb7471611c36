import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard set`: store an ID typed by hand.
struct SetCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a member ID typed by hand.",
        discussion: """
            Without ID, gymcard asks for it on the terminal (or reads one line from standard input), so \
            the ID stays out of the process list and the shell history. The first time, gymcard asks for \
            a passphrase twice; --no-passphrase stores the card unencrypted instead. When a card is \
            already stored, its passphrase is asked for and kept. With the ID on standard input and \
            --passphrase-fd 0, the first line is the ID and the second the passphrase. The card is \
            Codabar unless --symbology names another symbology (see show); its exact text is stored. \
            The card it replaces is kept as the previous card (see card --restore).
            """
    )

    @Argument(help: ArgumentHelp("The ID, e.g. 9051-23456 (better omitted: see above).", valueName: "id"))
    var id: String?

    @Option(
        name: [.short, .long], help: ArgumentHelp("A name for the card; \"\" for none.", valueName: "text"))
    var label: String?

    @Option(
        name: .customLong("symbology"),
        help: ArgumentHelp(
            "The card's symbology (default: codabar): \(SymbolOptions.symbologyNames).", valueName: "name"),
        completion: SymbolOptions.symbologyCompletion)
    var symbologyName: String?

    func validate() throws { _ = try symbologyName.map(SymbolOptions.symbology) }

    @Flag(name: .customLong("no-passphrase"), help: "Store the card without a passphrase (not encrypted).")
    var noPassphrase = false

    @OptionGroup var passphrases: PassphraseOptions

    func run(in context: Context) throws {
        let text =
            try id
            ?? CardSymbol.readID {
                try TerminalPrompt.answer("Member ID (digits under the barcode): ", echo: true)
            }
        let symbology = try symbologyName.map(SymbolOptions.symbology) ?? .codabar
        let content = try CardSymbol.content(for: text, symbology: symbology, warn: context.warn)
        try CardStoring.store(
            content, label: label, noPassphrase: noPassphrase, passphrases: passphrases, in: context)
    }
}

extension Terminal.StandardError {
    /// Says that the card is stored in the clear, where, and how to encrypt it.
    func warnUnencrypted(_ store: CardStore) {
        say(
            "the card is NOT encrypted: anyone who can read \(store.plainPath) can see the ID; "
                + "add a passphrase with `gymcard passphrase set`")
    }
}

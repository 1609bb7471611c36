import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard forget`: delete the stored card.
struct Forget: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete the stored card and its backup.",
        discussion: "Asks for confirmation on the terminal; scripts pass --yes."
    )

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    func run(in context: Context) throws {
        let access = CardAccess(context: context, passphrases: PassphraseOptions.passphrases())
        guard access.store.protection() != nil else { throw VaultError.noCard }
        if !yes {
            guard let answer = TerminalPrompt.confirm("Delete the stored card? This cannot be undone. [y/N] ")
            else {
                throw Failure(
                    "gymcard forget asks for confirmation on a terminal; use --yes in scripts", status: .usage
                )
            }
            guard answer else { return Terminal.standardError.say("kept the stored card") }
        }
        // Under the card's lock: a `set` or `passphrase change` running meanwhile finishes first.
        try access.forget()
        Terminal.standardError.say("deleted the stored card")
    }
}

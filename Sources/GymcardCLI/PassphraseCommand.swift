import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard passphrase set|change|remove`: the gate in front of the stored card.
struct PassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Add, change or remove the passphrase in front of the stored card.",
        discussion: """
            The ID is kept. The card file is an age file (age-encryption.org/v1, scrypt), so it can also \
            be opened with `age -d card.age`.
            """,
        subcommands: [Add.self, Change.self, Remove.self]
    )

    struct Add: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Encrypt an unencrypted card under a new passphrase.")

        @OptionGroup var new: NewPassphraseOptions

        func run(in context: Context) throws {
            let passphrases = PassphraseOptions.passphrases(new: new)
            try CardAccess(context: context, passphrases: passphrases).rewrap(
                from: .unencrypted, encrypt: true)
            Terminal.standardError.say("the card is now encrypted with the passphrase")
        }
    }

    struct Change: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "change", abstract: "Change the passphrase.")

        @OptionGroup var passphrases: PassphraseOptions
        @OptionGroup var new: NewPassphraseOptions

        func run(in context: Context) throws {
            let access = CardAccess(context: context, passphrases: passphrases.passphrases(new: new))
            try access.rewrap(from: .passphrase, encrypt: true)
            Terminal.standardError.say("the passphrase is changed")
        }
    }

    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove the passphrase (the card is then not encrypted).")

        @OptionGroup var passphrases: PassphraseOptions

        func run(in context: Context) throws {
            let access = CardAccess(context: context, passphrases: passphrases.passphrases())
            try access.rewrap(from: .passphrase, encrypt: false)
            Terminal.standardError.warnUnencrypted(access.store)
        }
    }
}

import ArgumentParser
import CardVault
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

    /// Options for the new passphrase, for scripts.
    struct NewPassphraseOptions: ParsableArguments {
        @Option(
            name: .customLong("new-passphrase-file"),
            help: ArgumentHelp("Read the new passphrase from the first line of <file>.", valueName: "file"))
        var file: String?

        @Option(
            name: .customLong("new-passphrase-fd"),
            help: ArgumentHelp("Read the new passphrase from file descriptor <n>.", valueName: "n"))
        var descriptor: Int32?
    }

    struct Add: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Encrypt an unencrypted card under a new passphrase.")

        @OptionGroup var new: NewPassphraseOptions

        func run(in context: Context) throws {
            let access = CardAccess(context: context, passphrases: nil)
            try access.rewrap(from: .unencrypted) {
                try access.newPassphrase(file: new.file, descriptor: new.descriptor)
            }
            Terminal.standardError.say("the card is now encrypted with the passphrase")
        }
    }

    struct Change: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "change", abstract: "Change the passphrase.")

        @OptionGroup var passphrases: PassphraseOptions
        @OptionGroup var new: NewPassphraseOptions

        func run(in context: Context) throws {
            let access = CardAccess(context: context, passphrases: passphrases)
            try access.rewrap(from: .passphrase) {
                try access.newPassphrase(file: new.file, descriptor: new.descriptor)
            }
            Terminal.standardError.say("the passphrase is changed")
        }
    }

    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove the passphrase (the card is then not encrypted).")

        @OptionGroup var passphrases: PassphraseOptions

        func run(in context: Context) throws {
            let access = CardAccess(context: context, passphrases: passphrases)
            try access.rewrap(from: .passphrase) { nil }
            access.warnUnencrypted()
        }
    }
}

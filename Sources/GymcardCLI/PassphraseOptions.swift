import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// Where passphrases come from: the terminal by default, a file or a descriptor for scripts. Never an
/// argument value and never the environment, which other processes and shell histories can read.
struct PassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("Read the (current) passphrase from the first line of <file>.", valueName: "file"),
        completion: .file())
    var passphraseFile: String?

    @Option(
        name: .customLong("passphrase-fd"), parsing: .unconditional,
        help: ArgumentHelp("Read the (current) passphrase from file descriptor <n>.", valueName: "n"))
    var passphraseDescriptor: Int32?

    func validate() throws {
        if passphraseFile != nil, passphraseDescriptor != nil {
            throw ValidationError("give --passphrase-file or --passphrase-fd, not both")
        }
    }

    /// The passphrases for a use case: these options', else asked on the terminal (echo off).
    func passphrases(new: NewPassphraseOptions? = nil, offersNone: Bool = false) -> Passphrases {
        Self.passphrases(
            file: passphraseFile, descriptor: passphraseDescriptor, new: new, offersNone: offersNone)
    }

    /// The passphrases from the terminal only (`passphrase set`), or a script's new one.
    static func passphrases(
        file: String? = nil, descriptor: Int32? = nil, new: NewPassphraseOptions? = nil,
        offersNone: Bool = false
    ) -> Passphrases {
        Passphrases(
            script: PassphraseOrigin(file: file, descriptor: descriptor),
            newScript: PassphraseOrigin(file: new?.file, descriptor: new?.descriptor), offersNone: offersNone,
            ask: { prompt throws(PassphraseProblem) in
                do { return try TerminalPrompt.answer(prompt, echo: false) } catch { throw .cancelled }
            }, canAsk: { TerminalPrompt.isAvailable })
    }
}

/// Options for the new passphrase, for scripts.
struct NewPassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("new-passphrase-file"),
        help: ArgumentHelp("Read the new passphrase from the first line of <file>.", valueName: "file"),
        completion: .file())
    var file: String?

    @Option(
        name: .customLong("new-passphrase-fd"), parsing: .unconditional,
        help: ArgumentHelp("Read the new passphrase from file descriptor <n>.", valueName: "n"))
    var descriptor: Int32?
}

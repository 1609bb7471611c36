import ArgumentParser
import CardVault
import Glibc

/// Where passphrases come from: the terminal by default, a file or a descriptor for scripts. Never an
/// argument value and never the environment, which other processes and shell histories can read.
struct PassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("Read the (current) passphrase from the first line of <file>.", valueName: "file"))
    var passphraseFile: String?

    @Option(
        name: .customLong("passphrase-fd"),
        help: ArgumentHelp("Read the (current) passphrase from file descriptor <n>.", valueName: "n"))
    var passphraseDescriptor: Int32?

    func validate() throws {
        if passphraseFile != nil, passphraseDescriptor != nil {
            throw ValidationError("give --passphrase-file or --passphrase-fd, not both")
        }
    }

    /// Whether a script supplied the passphrase.
    var isScripted: Bool { passphraseFile != nil || passphraseDescriptor != nil }

    /// A new passphrase: from the file or descriptor, or asked twice on the terminal (nothing is written
    /// if the two differ; an empty one is asked again, up to three times). `alternative` names what the
    /// command offers instead of a passphrase (`--no-passphrase`), for the message about an empty one.
    static func new(file: String?, descriptor: Int32?, alternative: String? = nil) throws -> [UInt8] {
        if file != nil || descriptor != nil {
            let passphrase = try Self.read(file: file, descriptor: descriptor, prompt: "")
            guard !passphrase.isEmpty else {
                throw EmptyPassphrase(file: file, descriptor: descriptor, alternative: alternative)
            }
            return passphrase
        }
        for attempt in 1...3 {
            let first = try Self.read(file: nil, descriptor: nil, prompt: "New passphrase: ")
            guard !first.isEmpty else {
                guard attempt < 3 else { throw EmptyPassphrase(alternative: alternative) }
                Terminal.standardError.say("the passphrase is empty; type one (\(3 - attempt) tries left)")
                continue
            }
            let second = try Self.read(file: nil, descriptor: nil, prompt: "Repeat the new passphrase: ")
            guard first == second else {
                throw Failure("the two passphrases differ; nothing was changed", status: .usage)
            }
            return first
        }
        throw EmptyPassphrase(alternative: alternative)
    }

    /// The passphrase from the file (its first line), the descriptor, or the terminal (echo off). It may
    /// be empty: what that means depends on the caller.
    static func read(file: String?, descriptor: Int32?, prompt: String) throws -> [UInt8] {
        if let file {
            let handle = open(file, O_RDONLY | O_CLOEXEC)
            guard handle >= 0 else {
                throw Failure(
                    "cannot read the passphrase file \(file): \(String(cString: strerror(errno)))",
                    status: .noInput)
            }
            defer { close(handle) }
            return firstLine(of: handle)
        }
        if let descriptor {
            guard fcntl(descriptor, F_GETFD) >= 0 else {
                throw Failure("file descriptor \(descriptor) is not open", status: .usage)
            }
            return firstLine(of: descriptor)
        }
        guard let answer = TerminalPrompt.ask(prompt, echo: false) else {
            throw Failure(
                "a passphrase is needed and there is no terminal to ask on; give --passphrase-file <file> "
                    + "or --passphrase-fd <n>", status: .usage)
        }
        return answer
    }

    /// An empty passphrase: from a file or descriptor a mistake to report, on the terminal one failed try.
    struct EmptyPassphrase: ConvertibleToFailure {
        var file: String?
        var descriptor: Int32?
        /// What the command offers instead (`--no-passphrase`), if anything.
        var alternative: String?

        /// The message, naming where the empty passphrase came from and only options the command has.
        var failure: Failure {
            var message: String
            if let file {
                message = "the passphrase file \(file) is empty (gymcard reads its first line)"
            } else if let descriptor {
                message =
                    "file descriptor \(descriptor) gave an empty passphrase (gymcard reads its first line)"
            } else {
                message = "the passphrase is empty"
            }
            if let alternative { message += "; give one, or use \(alternative)" }
            return Failure(message, status: .usage)
        }
    }

    /// The bytes up to the first newline (a trailing CR dropped), at most 4 KiB.
    ///
    /// Read one byte at a time, as the shell's `read` does, so that nothing after the newline is taken:
    /// with the ID on standard input and `--passphrase-fd 0`, the ID is the first line and the passphrase
    /// the second.
    static func firstLine(of descriptor: Int32) -> [UInt8] {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != 10 else { break }
            line.append(byte)
        }
        if line.last == 13 { line.removeLast() }
        return line
    }
}

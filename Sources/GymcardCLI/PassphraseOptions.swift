import ArgumentParser
import CardVault
import Glibc

/// Where passphrases come from: the terminal by default, a file or a descriptor for scripts. Never an
/// argument value and never the environment, which other processes and shell histories can read.
struct PassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("Read the (current) passphrase from the first line of FILE.", valueName: "FILE"))
    var passphraseFile: String?

    @Option(
        name: .customLong("passphrase-fd"),
        help: ArgumentHelp("Read the (current) passphrase from file descriptor N.", valueName: "N"))
    var passphraseDescriptor: Int32?

    func validate() throws {
        if passphraseFile != nil, passphraseDescriptor != nil {
            throw ValidationError("give --passphrase-file or --passphrase-fd, not both")
        }
    }

    /// Whether a script supplied the passphrase.
    var isScripted: Bool { passphraseFile != nil || passphraseDescriptor != nil }

    /// A new passphrase: from the file or descriptor, or asked twice on the terminal (nothing is written
    /// if the two differ).
    static func new(file: String?, descriptor: Int32?) throws -> [UInt8] {
        if file != nil || descriptor != nil {
            return try Self.read(file: file, descriptor: descriptor, prompt: "")
        }
        let first = try Self.read(file: nil, descriptor: nil, prompt: "New passphrase: ")
        let second = try Self.read(file: nil, descriptor: nil, prompt: "Repeat the new passphrase: ")
        guard first == second else {
            throw Failure("the two passphrases differ; nothing was changed", status: .usage)
        }
        return first
    }

    static func read(file: String?, descriptor: Int32?, prompt: String) throws -> [UInt8] {
        var passphrase: [UInt8]
        if let file {
            let handle = open(file, O_RDONLY | O_CLOEXEC)
            guard handle >= 0 else {
                throw Failure(
                    "cannot read the passphrase file \(file): \(String(cString: strerror(errno)))",
                    status: .noInput)
            }
            defer { close(handle) }
            passphrase = firstLine(of: handle)
        } else if let descriptor {
            guard fcntl(descriptor, F_GETFD) >= 0 else {
                throw Failure("file descriptor \(descriptor) is not open", status: .usage)
            }
            passphrase = firstLine(of: descriptor)
        } else {
            guard let answer = TerminalPrompt.ask(prompt, echo: false) else {
                throw Failure(
                    "a passphrase is needed and there is no terminal to ask on; give --passphrase-file FILE "
                        + "or --passphrase-fd N", status: .usage)
            }
            passphrase = answer
        }
        guard !passphrase.isEmpty else {
            throw Failure(VaultError.emptyPassphrase.description, status: .usage)
        }
        return passphrase
    }

    /// The bytes up to the first newline (a trailing CR dropped), read one block at a time.
    private static func firstLine(of descriptor: Int32) -> [UInt8] {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            for byte in buffer[0..<count] {
                if byte == 10 { break reading }
                line.append(byte)
            }
            guard line.count < 4096 else { break }
        }
        if line.last == 13 { line.removeLast() }
        return line
    }
}

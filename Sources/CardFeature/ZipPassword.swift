import Glibc
import GymcardCore

/// Where the password of a Catima zip comes from: the first line of a file (`--password-file`), or the
/// terminal, asked with echo off (the CLI on `/dev/tty`; a test with the answers it chose). Never an
/// argument value or the environment, which other processes can read.
public struct ZipPassword: Sendable {
    /// The file whose first line is the password, or `nil`: asked on the terminal.
    public var file: String?
    /// Asks `prompt` on the terminal with echo off; `nil` when there is no terminal. What it throws
    /// (the prompt ended with Ctrl-D) stops the command as a usage problem, in its own words.
    public var ask: @Sendable (_ prompt: String) throws -> [UInt8]?
    /// Whether there is a terminal to ask on.
    public var canAsk: @Sendable () -> Bool

    /// Passwords from `file`, else asked with `ask`.
    public init(
        file: String?, ask: @escaping @Sendable (String) throws -> [UInt8]?,
        canAsk: @escaping @Sendable () -> Bool
    ) {
        self.file = file
        self.ask = ask
        self.canAsk = canAsk
    }

    /// The password of an encrypted zip: the file's first line, or asked once on the terminal.
    func current(for name: String) throws(CatimaProblem) -> String {
        if let file { return try Self.firstLine(of: file) }
        guard canAsk() else {
            throw CatimaProblem("\(name) is encrypted", kind: .usage, remedy: .passwordFile)
        }
        return try typed("Password of \(name): ")
    }

    /// A new password for an export: the file's first line, or typed twice on the terminal.
    func new() throws(CatimaProblem) -> String {
        if let file { return try Self.firstLine(of: file) }
        guard canAsk() else {
            throw CatimaProblem(
                "the export's password is asked for on a terminal, and there is none", kind: .usage,
                remedy: .passwordFile)
        }
        let password = try typed("Password for the export: ")
        guard try typed("Repeat the password: ") == password else {
            throw CatimaProblem("the two passwords differ; nothing was written", kind: .usage)
        }
        return password
    }

    private func typed(_ prompt: String) throws(CatimaProblem) -> String {
        guard let answer = try CatimaProblem.asking({ try ask(prompt) }) else {
            throw CatimaProblem("a password is needed and there is no terminal to ask on", kind: .usage)
        }
        guard !answer.isEmpty else { throw CatimaProblem("the password is empty", kind: .usage) }
        return String(decoding: answer, as: UTF8.self)
    }

    private static func firstLine(of path: String) throws(CatimaProblem) -> String {
        let line: [UInt8]
        do { line = try Passphrases.firstLine(ofFile: path) } catch {
            throw CatimaProblem("cannot read the password file \(path): \(error.reason)", kind: .missingInput)
        }
        guard !line.isEmpty else {
            throw CatimaProblem(
                "the password file \(path) is empty (gymcard reads its first line)", kind: .usage)
        }
        return String(decoding: line, as: UTF8.self)
    }
}

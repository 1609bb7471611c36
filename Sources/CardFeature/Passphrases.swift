import Glibc
import GymcardCore

/// Where a passphrase comes from: the first line of a file or of an open descriptor (scripts), or the
/// terminal. Never an argument value and never the environment, which other processes can read.
public enum PassphraseOrigin: Equatable, Sendable {
    case file(String)
    case descriptor(Int32)
    case terminal
}

extension PassphraseOrigin {
    /// The file when one is named, else the descriptor when one is given; `nil` (the terminal) for neither.
    public init?(file: String?, descriptor: Int32?) {
        if let file {
            self = .file(file)
        } else if let descriptor {
            self = .descriptor(descriptor)
        } else {
            return nil
        }
    }
}

/// How a use case gets passphrases: a script's file or descriptor, or questions on the terminal, which
/// the caller asks (the CLI on `/dev/tty`; a test with the answers it chose).
public struct Passphrases: Sendable {
    /// The current passphrase from a script, or `nil`: asked on the terminal.
    public var script: PassphraseOrigin?
    /// The new passphrase from a script (`passphrase set|change`), or `nil`: typed twice on the terminal.
    public var newScript: PassphraseOrigin?
    /// Whether the caller can store the card without one (for the wording of an empty passphrase).
    public var offersNone: Bool
    /// Asks `prompt` on the terminal with echo off; `nil` when there is no terminal. Throws
    /// ``PassphraseProblem/cancelled`` when the person ends the prompt (Ctrl-D): no try is counted.
    public var ask: @Sendable (_ prompt: String) throws(PassphraseProblem) -> [UInt8]?
    /// Whether there is a terminal to ask on.
    public var canAsk: @Sendable () -> Bool

    /// Passphrases from `script` and `newScript`, else asked with `ask`.
    public init(
        script: PassphraseOrigin? = nil, newScript: PassphraseOrigin? = nil, offersNone: Bool = false,
        ask: @escaping @Sendable (String) throws(PassphraseProblem) -> [UInt8]?,
        canAsk: @escaping @Sendable () -> Bool
    ) {
        self.script = script
        self.newScript = newScript
        self.offersNone = offersNone
        self.ask = ask
        self.canAsk = canAsk
    }

    /// Whether a script gives the passphrase (then it is read once, and tried once).
    public var isScripted: Bool { script != nil }

    /// The passphrase from `origin`; it may be empty: what that means depends on the caller.
    func read(_ origin: PassphraseOrigin, prompt: String) throws(PassphraseProblem) -> [UInt8] {
        switch origin {
        case .file(let path):
            do { return try Self.firstLine(ofFile: path) } catch {
                throw .cannotReadFile(path, reason: error.reason)
            }
        case .descriptor(let descriptor):
            guard fcntl(descriptor, F_GETFD) >= 0 else { throw .descriptorNotOpen(descriptor) }
            return Self.firstLine(of: descriptor)
        case .terminal:
            guard let answer = try ask(prompt) else { throw .noTerminal }
            return answer
        }
    }

    /// A new passphrase: from `newScript`, or asked twice on the terminal. An empty one, or a second
    /// typing that differs from the first, is asked again, up to three times in all, each retry said
    /// through `say`: what the person typed before (an ID) is kept meanwhile. Nothing is written when the
    /// last try fails.
    func new(say: (String) -> Void) throws(PassphraseProblem) -> [UInt8] {
        if let newScript {
            let passphrase = try read(newScript, prompt: "")
            guard !passphrase.isEmpty else { throw .empty(newScript, noneOffered: offersNone) }
            return passphrase
        }
        var failure = PassphraseProblem.differ
        for left in (0..<3).reversed() {
            let first = try read(.terminal, prompt: "New passphrase: ")
            if first.isEmpty {
                failure = .empty(.terminal, noneOffered: offersNone)
                if left > 0 { say("the passphrase is empty; type one (\(left) left)") }
            } else if try read(.terminal, prompt: "Repeat the new passphrase: ") != first {
                failure = .differ
                if left > 0 { say("the two passphrases differ; type the new one again (\(left) left)") }
            } else {
                return first
            }
        }
        throw failure
    }

    /// Why a passphrase or password file cannot be read: strerror's text, or that it is a directory.
    public struct UnreadableFile: Error {
        /// strerror's text, or "it is a directory".
        public let reason: String
    }

    /// The first line of the file at `path` (a FIFO or `/dev/fd/N` included); a directory is refused, not
    /// read as empty.
    public static func firstLine(ofFile path: String) throws(UnreadableFile) -> [UInt8] {
        let handle = open(path, O_RDONLY | O_CLOEXEC)
        guard handle >= 0 else { throw UnreadableFile(reason: String(cString: strerror(errno))) }
        defer { close(handle) }
        var status = stat()
        if fstat(handle, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw UnreadableFile(reason: "it is a directory")
        }
        return firstLine(of: handle)
    }

    /// The bytes up to the first newline (a trailing CR dropped), at most 4 KiB.
    ///
    /// Read one byte at a time, as the shell's `read` does, so that nothing after the newline is taken:
    /// with the ID on standard input and `--passphrase-fd 0`, the ID is the first line and the passphrase
    /// the second.
    public static func firstLine(of descriptor: Int32) -> [UInt8] {
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

/// Why no usable passphrase was had. Neutral: the CLI names its options in the advice.
public enum PassphraseProblem: Error, Equatable, CustomStringConvertible {
    /// The passphrase file cannot be opened: its path and the system's reason.
    case cannotReadFile(String, reason: String)
    /// The passphrase descriptor is not open.
    case descriptorNotOpen(Int32)
    /// A passphrase is needed and there is no terminal to ask on (and no script gave it).
    case noTerminal
    /// A new passphrase for a first card is needed, and there is neither a terminal nor a script.
    case noTerminalToChoose
    /// The passphrase from `origin` is empty; `noneOffered`: the caller could store without one.
    case empty(PassphraseOrigin, noneOffered: Bool)
    /// The new passphrase was typed differently the second time (on the last try).
    case differ
    /// The person ended a passphrase prompt (Ctrl-D, end of input) instead of answering.
    case cancelled

    /// What happened, without advice.
    public var description: String {
        switch self {
        case .cannotReadFile(let path, let reason): "cannot read the passphrase file \(path): \(reason)"
        case .descriptorNotOpen(let descriptor): "file descriptor \(descriptor) is not open"
        case .noTerminal: "a passphrase is needed and there is no terminal to ask on"
        case .noTerminalToChoose: "the card needs a new passphrase and there is no terminal to ask on"
        case .empty(.file(let path), _): "the passphrase file \(path) is empty (gymcard reads its first line)"
        case .empty(.descriptor(let descriptor), _):
            "file descriptor \(descriptor) gave an empty passphrase (gymcard reads its first line)"
        case .empty(.terminal, _): "the passphrase is empty"
        case .differ: "the two passphrases differ; nothing was changed"
        case .cancelled: "no passphrase given: the prompt was ended with Ctrl-D; nothing was changed"
        }
    }
}

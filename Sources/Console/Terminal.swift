import Glibc
import Storage
import Synchronization
import TerminalText

/// What the process is attached to: whether stdout is a terminal, how wide it is, whether colour is wanted.
public struct Terminal {
    /// Writes to standard error, for everything said to a person.
    public struct StandardError: Sendable {
        /// Says one line. Messages carry file names, labels and text from pages and feeds: the whole line
        /// is made terminal-safe here, so that none of them can steer the terminal or break the line.
        public func say(_ message: String) {
            write("gymcard: " + message.terminalSafe + "\n")
        }

        /// Writes without a newline or prefix (progress lines).
        public func write(_ text: String) {
            // Unbuffered: a person must see it now, and a failed write to stderr has nowhere to be reported.
            try? AtomicFile.writeAll(Array(text.utf8), to: STDERR_FILENO, path: "standard error")
        }

        /// Whether standard error is a terminal (progress lines are drawn only there).
        public var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    }

    /// The process's standard error.
    public static let standardError = StandardError()

    /// Writes to standard output unbuffered, for output that must appear now (watch redraws, JSON lines).
    public struct StandardOutput: Sendable {
        /// The first write to standard output that failed, nil while none has.
        private static let firstFailure = Mutex<StorageError?>(nil)

        /// Writes one line, buffered as `print` buffers (the one place gymcard prints: ARCHITECTURE §3).
        public func line(_ text: String) {
            print(text)
        }

        /// Writes `text` now, after whatever `print` buffered.
        public func write(_ text: String) {
            if fflush(nil) != 0 { Self.record(errno) }
            do {
                try AtomicFile.writeAll(Array(text.utf8), to: STDOUT_FILENO, path: "standard output")
            } catch {
                Self.record(error)
            }
        }

        /// Flushes what `print` buffered, and says why standard output could not be written if a write to it
        /// failed (a full disk, a closed descriptor); nil when everything written arrived. For the exit: a
        /// script that sends the output to a full disk must not take an empty file for success (coreutils'
        /// `close_stdout` does the same).
        public func failureAtExit() -> StorageError? {
            // A failed flush of a full buffer earlier keeps the bytes buffered, so this flush fails again.
            if fflush(nil) != 0 { Self.record(errno) }
            return Self.firstFailure.withLock { $0 }
        }

        private static func record(_ number: Int32) {
            record(
                StorageError(errno: number == 0 ? EIO : number, path: "standard output", operation: "write"))
        }

        private static func record(_ error: StorageError) {
            firstFailure.withLock { first in if first == nil { first = error } }
        }
    }

    /// The process's standard output.
    public static let standardOutput = StandardOutput()

    /// Whether standard output is a terminal.
    public let stdoutIsTerminal: Bool
    /// The process's environment (`NO_COLOR`, `TERM`, `COLORTERM`, `COLUMNS`).
    public let environment: [String: String]

    /// The terminal as the process sees it now, with its environment.
    public init(environment: [String: String]) {
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        self.environment = environment
    }

    /// Why colour is off, or `nil` when it is on.
    public func reasonColourIsOff(noColorFlag: Bool) -> String? {
        if noColorFlag { return "--no-color was given" }
        if let value = environment["NO_COLOR"], !value.isEmpty { return "NO_COLOR is set" }
        if environment["TERM"] == "dumb" { return "TERM is dumb" }
        if !stdoutIsTerminal { return "standard output is not a terminal" }
        return nil
    }

    /// Whether the terminal says it shows 24-bit colour (`COLORTERM` truecolor or 24bit), else the
    /// 256-colour palette is used.
    public var isTrueColour: Bool {
        ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
    }

    /// The terminal's width in columns; when stdout is not a terminal, `$COLUMNS` or no limit.
    public var columns: Int? {
        if stdoutIsTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let text = environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        return stdoutIsTerminal ? 80 : nil
    }

    /// The terminal's height in rows, when stdout is a terminal that says.
    public var rows: Int? {
        guard stdoutIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// Prints lines to standard output.
    public func printLines(_ lines: [String]) {
        for line in lines { Self.standardOutput.line(line) }
    }
}

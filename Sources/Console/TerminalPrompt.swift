import Glibc

/// Questions asked on the controlling terminal (`/dev/tty`), never on stdin/stdout, so they work while
/// output is piped, and never hang when there is no terminal: the caller gets `nil` instead.
public enum TerminalPrompt {
    /// The controlling terminal, where questions are asked.
    public static let controllingTerminal = "/dev/tty"

    /// Whether there is a terminal to ask on.
    public static var isAvailable: Bool {
        let descriptor = open(controllingTerminal, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Asks a question and reads one line; with `echo` false the answer is not shown (a passphrase).
    /// Returns `nil` when there is no terminal; Ctrl-D answers as an empty line (a [y/N] question's no).
    public static func ask(_ question: String, echo: Bool, on device: String = controllingTerminal)
        -> [UInt8]?
    {
        do { return try answer(question, echo: echo, on: device) } catch { return [] }
    }

    /// ``ask(_:echo:on:)`` with the answer shown as it is typed, as text (a name, a link, a choice).
    public static func askLine(_ question: String, on device: String = controllingTerminal) -> String? {
        ask(question, echo: true, on: device).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Asks a [y/N] question: true for y or yes; `nil` when there is no terminal.
    public static func confirm(_ question: String, on device: String = controllingTerminal) -> Bool? {
        askLine(question, on: device).map { ["y", "yes"].contains($0.lowercased()) }
    }

    /// Echo is left off after a secret answer until the next question that echoes, or the exit: checking
    /// a passphrase takes scrypt's second, and what is typed meanwhile (often the next try, after a wrong
    /// one) must not show. The terminal, its settings from before, and a descriptor to restore them on.
    nonisolated(unsafe) private static var silenced: (device: String, descriptor: Int32, original: termios)?

    /// Turns echo back on (and drops what was typed while it was off) if a secret answer left it off.
    public static func restoreEcho() {
        guard let (_, descriptor, settings) = silenced else { return }
        var original = settings
        tcsetattr(descriptor, TCSAFLUSH, &original)
        Interrupt.terminalRestored()
        close(descriptor)
        silenced = nil
    }

    /// ``ask(_:echo:on:)`` where Ctrl-D (end of input) is no answer: it throws ``PromptEnded``, after a
    /// newline so that what is said next starts on a line of its own. `device` is the terminal to ask on.
    public static func answer(_ question: String, echo: Bool, on device: String = controllingTerminal)
        throws(PromptEnded) -> [UInt8]?
    {
        // A question that echoes, on the terminal left silent; or a secret one on another terminal.
        if let silenced, echo == (silenced.device == device) { restoreEcho() }
        let descriptor = open(device, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var original = termios()
        let canHide = silenced != nil || tcgetattr(descriptor, &original) == 0
        if !echo, canHide {
            if let silenced {
                original = silenced.original
            } else {
                let kept = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
                if kept >= 0 {
                    silenced = (device, kept, original)
                    // Ctrl-C while echo is off must not leave the terminal silent; nor must the exit.
                    Interrupt.terminalSilenced(kept, restoring: original)
                    _ = registerRestoreAtExit
                }
            }
            var hidden = original
            hidden.c_lflag &= ~tcflag_t(ECHO)
            // Before the question, as readpassphrase(3) does: TCSAFLUSH drops what was typed before it,
            // and what is typed once the question shows must be kept (on a loaded machine it was not).
            tcsetattr(descriptor, TCSAFLUSH, &hidden)
            if silenced == nil {
                // No descriptor to keep: echo comes back with the answer, as before.
                Interrupt.terminalSilenced(descriptor, restoring: original)
            }
        }
        write(descriptor, question)
        defer {
            if !echo, canHide {
                if silenced == nil {
                    tcsetattr(descriptor, TCSAFLUSH, &original)
                    Interrupt.terminalRestored()
                }
                write(descriptor, "\n")
            }
        }
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != 10 { answer.append(byte) }
        guard byte == 10 else {
            if echo || !canHide { write(descriptor, "\n") }
            throw PromptEnded()
        }
        if answer.last == 13 { answer.removeLast() }
        return answer
    }

    /// Registers ``restoreEcho()`` to run at `exit(3)`, once.
    private static let registerRestoreAtExit: Void = { _ = atexit { TerminalPrompt.restoreEcho() } }()

    private static func write(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

/// A question on the terminal was ended with Ctrl-D (end of input) instead of an answer.
public struct PromptEnded: Error, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// What happened, for a person.
    public var description: String {
        "nothing was typed: the prompt was ended with Ctrl-D; nothing was changed"
    }
}

import Console
import Glibc

/// Questions asked on the controlling terminal (`/dev/tty`), never on stdin/stdout, so they work while
/// output is piped, and never hang when there is no terminal: the caller gets `nil` instead.
enum TerminalPrompt {
    /// Whether there is a terminal to ask on.
    static var isAvailable: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Asks a question and reads one line; with `echo` false the answer is not shown (a passphrase).
    /// Returns `nil` when there is no terminal.
    static func ask(_ question: String, echo: Bool) -> [UInt8]? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        write(descriptor, question)
        var original = termios()
        let canHide = tcgetattr(descriptor, &original) == 0
        if !echo, canHide {
            var hidden = original
            hidden.c_lflag &= ~tcflag_t(ECHO)
            // Ctrl-C while echo is off must not leave the terminal silent.
            Interrupt.terminalSilenced(descriptor, restoring: original)
            tcsetattr(descriptor, TCSAFLUSH, &hidden)
        }
        defer {
            if !echo, canHide {
                tcsetattr(descriptor, TCSAFLUSH, &original)
                Interrupt.terminalRestored()
                write(descriptor, "\n")
            }
        }
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != 10 { answer.append(byte) }
        if answer.last == 13 { answer.removeLast() }
        return answer
    }

    private static func write(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

import Glibc
import Storage

/// Ctrl-C, SIGTERM and SIGHUP for every command: nothing half-written or hidden stays behind.
///
/// The entry point installs one handler for the three signals. It removes the temporary names a write
/// in progress registered (Storage's ``TemporaryNames``), puts back a terminal a passphrase prompt had
/// silenced, shows the cursor a `--watch` hid, and exits: 130 for Ctrl-C (0 ends a watch), 128 + the
/// signal's number otherwise. A command that stops between files instead (`render --batch`) asks for
/// ``requestStop()``: the first signal is then only noted, and a second one exits at once.
public enum Interrupt {
    /// Whether the handler must show the cursor again (a `--watch` redrawing on a terminal hid it).
    nonisolated(unsafe) public static var showsCursor = false
    /// Whether a status line on standard error (`wait` on a terminal) must be cleared.
    nonisolated(unsafe) public static var clearsStatusLine = false
    /// The exit status on Ctrl-C: 0 ends a watch normally, 130 marks an interrupted command.
    nonisolated(unsafe) public static var exitStatus: Int32 = 130
    /// Set by ``stopBetweenSteps()``: the first signal is recorded in ``pendingSignal`` instead of exiting.
    nonisolated(unsafe) private static var stopsBetweenSteps = false
    /// The signal that asked a command stopping between steps to stop, or 0.
    nonisolated(unsafe) public private(set) static var pendingSignal: Int32 = 0
    /// What puts the screen back after the full-screen card (`show` on a terminal), while it is shown.
    nonisolated(unsafe) private static var fullScreenExit: [UInt8]?
    /// A terminal whose echo a passphrase prompt turned off, with the settings to put back.
    nonisolated(unsafe) private static var silencedTerminal: (descriptor: Int32, settings: termios)?
    /// While the full-screen card holds the backlight up: the socket to its guardian process, which puts
    /// the level back when this end is shut (ARCHITECTURE §16), and the work that shuts it; else `nil`.
    nonisolated(unsafe) private static var guardian:
        (descriptor: Int32, release: @convention(c) (Int32) -> Void)?

    /// The signals handled.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handler (called once by the entry point, on the main thread). A signal the process
    /// was started with ignored (a background job's SIGINT) stays ignored, as shells expect.
    public static func install() {
        TemporaryNames.prepare()
        _ = pendingSignal
        _ = silencedTerminal
        _ = fullScreenExit
        _ = guardian
        for number in signals {
            var current = sigaction()
            if sigaction(number, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                    == unsafeBitCast(SIG_IGN, to: Int.self)
            {
                continue
            }
            signal(number) { number in Interrupt.handle(number) }
        }
        unblock()
    }

    /// From now on the first signal only sets ``pendingSignal``; the command checks it between steps and
    /// ends in an orderly way. A second signal exits at once, as always.
    public static func stopBetweenSteps() { stopsBetweenSteps = true }

    /// The exit status for an orderly stop after `signal`.
    public static func status(after signal: Int32) -> Int32 { signal == SIGINT ? exitStatus : 128 + signal }

    /// Remembers that echo is off on `descriptor`, so that a signal puts `settings` back.
    public static func terminalSilenced(_ descriptor: Int32, restoring settings: termios) {
        silencedTerminal = (descriptor, settings)
    }

    /// Echo is back on.
    public static func terminalRestored() { silencedTerminal = nil }

    /// While the full-screen card is up, a signal writes `sequence` (leave the alternate screen, show the
    /// cursor) before exiting; `nil` when the view is closed.
    public static func leaveFullScreen(with sequence: String?) {
        fullScreenExit = sequence.map { Array($0.utf8) }
    }

    /// While a guardian process keeps something for this process (the backlight at full), a signal calls
    /// `release` with `descriptor` before exiting: async-signal-safe work that lets the guardian put it
    /// back and waits, bounded, until it has. `nil` when there is none.
    public static func guarded(by guardian: (descriptor: Int32, release: @convention(c) (Int32) -> Void)?) {
        self.guardian = guardian
    }

    /// Only async-signal-safe work here: flags, `unlink`/`rmdir`, `tcsetattr`, `write(2)`, `_exit(2)`, and a
    /// guardian's release (`shutdown`, `poll`, `read`).
    private static func handle(_ number: Int32) {
        if stopsBetweenSteps, pendingSignal == 0 {
            pendingSignal = number
            return
        }
        TemporaryNames.removeAll()
        if var terminal = silencedTerminal {
            tcsetattr(terminal.descriptor, TCSANOW, &terminal.settings)
            _ = write(STDERR_FILENO, "\n", 1)
        }
        if let sequence = fullScreenExit {
            _ = sequence.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
        if let guardian { guardian.release(guardian.descriptor) }
        if clearsStatusLine {
            let sequence: StaticString = "\r\u{1B}[K"
            _ = write(STDERR_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
        }
        if showsCursor {
            let sequence: StaticString = "\u{1B}[?25h\n"
            _ = write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
        }
        _exit(status(after: number))
    }

    /// A parent may have started us with the signals blocked (the mask survives exec; `swift test` does
    /// it): they must still reach us. Unblocks for the calling thread only; the entry point calls it on
    /// the main thread, which outlives every worker.
    public static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

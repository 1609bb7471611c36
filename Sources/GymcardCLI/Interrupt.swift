import Glibc

/// Ctrl-C for the commands that fetch: leave at once, showing the cursor again first if a watch hid it.
enum Interrupt {
    /// Whether Ctrl-C must show the cursor again (a `--watch` redrawing on a terminal hid it).
    nonisolated(unsafe) static var showsCursor = false
    /// The exit status on Ctrl-C: 0 ends a watch normally, 130 marks an interrupted one-shot command.
    nonisolated(unsafe) static var exitStatus: Int32 = 130

    /// Installs the handler. Set ``showsCursor`` and ``exitStatus`` before calling.
    static func install() {
        signal(SIGINT) { _ in
            // Only async-signal-safe work here: a flag, a static string, write(2), _exit(2).
            if Interrupt.showsCursor {
                let sequence: StaticString = "\u{1B}[?25h\n"
                _ = write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
            }
            _exit(Interrupt.exitStatus)
        }
        unblock()
    }

    /// A parent may have started us with SIGINT blocked (the mask survives exec; `swift test` does it):
    /// Ctrl-C must still reach us. Unblocks for the calling thread only; the entry point calls it on the
    /// main thread, which outlives every worker.
    static func unblock() {
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }
}

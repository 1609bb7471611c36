/// gymcard's exit codes, following sysexits(3); the man page's EXIT STATUS lists the same.
enum ExitStatus: Int32 {
    case success = 0
    /// Nothing found (e.g. no barcode in a photo).
    case nothingFound = 1
    /// Closed, or closing before `wait` could succeed (LSB's "not running", as `systemctl is-active`).
    case closed = 3
    /// The command line was wrong.
    case usage = 64
    /// Bad data: an invalid ID, a corrupt image, page, feed or vault.
    case dataError = 65
    /// A missing input: a file, or no stored card.
    case noInput = 66
    /// A service is unavailable.
    case unavailable = 69
    /// gymcard itself went wrong (a bug): please report it.
    case software = 70
    /// Writing or reading failed (disk full, permission denied, output too narrow).
    case ioError = 74
    /// Data was shown, but some of it is stale or missing (occupancy, events from the cache).
    case staleData = 75
    /// The passphrase does not open the stored card.
    case wrongPassphrase = 77
    /// The config file is invalid.
    case configError = 78
    /// `wait --timeout` passed first (as GNU timeout).
    case timedOut = 124
    /// The terminal went away (128 + SIGHUP).
    case hangUp = 129
    /// Interrupted by Ctrl-C (128 + SIGINT).
    case interrupted = 130
    /// Ended by SIGTERM (128 + SIGTERM).
    case terminated = 143
}

/// A failure already worded for a person; the doorway prints it and exits with its status.
struct Failure: Error {
    var message: String
    var status: ExitStatus

    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// A failure whose messages were already printed: only the exit status remains.
    static func silent(_ status: ExitStatus) -> Failure { Failure("", status: status) }
}

/// An error that knows its own wording and exit status; the doorway reports it as that ``Failure``.
protocol ConvertibleToFailure: Error {
    var failure: Failure { get }
}

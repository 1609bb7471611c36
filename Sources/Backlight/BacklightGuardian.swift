import Glibc

/// The guardian's side of ``BacklightGuard``: a `gymcard` started with ``argument`` and the backlight
/// folder, its standard input a socket whose other end the full-screen card's process holds.
///
/// It raises the backlight, writes one line on the socket (`raised <device> <from> <to>` or `unchanged`),
/// then waits for the socket's end of stream — the card closed, or its process died in any way — and puts
/// the level back. The terminal's signals do not reach it (a session of its own); those sent to it alone
/// are ignored, so that only the card's end decides when the level comes back.
public enum BacklightGuardian {
    /// The word after the program's name that starts the guardian.
    public static let argument = "backlight-guardian"

    /// Whether this process is a guardian: `arguments` are `gymcard backlight-guardian <folder>` and
    /// standard input is a socket (a person typing the words gets the command line's usage error).
    public static func isRequested(_ arguments: [String]) -> Bool {
        guard arguments.count == 3, arguments[1] == argument else { return false }
        var status = stat()
        return fstat(STDIN_FILENO, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    /// Runs the guardian over the folder in `arguments` and exits.
    public static func run(_ arguments: [String], environment: [String: String]) -> Never {
        for number in [SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE] {
            signal(number, SIG_IGN)
        }
        // The card may be gone already (a key pressed at once): then there is nothing to raise.
        if parentEnded(waitMilliseconds: 0) { exit(0) }
        let level = BacklightLevel(folder: BacklightFolder(path: arguments[2]), environment: environment)
        let raised = level.raise()
        let device = raised?.device
        report(device.map { "raised \($0.name) \($0.brightness) \($0.maximum)\n" } ?? "unchanged\n")
        guard let raised else { exit(0) }
        _ = parentEnded(waitMilliseconds: -1)
        level.restore(raised)
        exit(0)
    }

    /// Whether the card's end of the socket has closed, waiting up to `waitMilliseconds` (-1: until it
    /// does). Anything it writes is read and dropped.
    private static func parentEnded(waitMilliseconds: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            var request = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, waitMilliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return ready < 0 }
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return true }
        }
    }

    private static func report(_ line: String) {
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { send(STDIN_FILENO, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

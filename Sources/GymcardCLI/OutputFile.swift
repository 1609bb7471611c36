import CampusFeature
import CardFeature
import Glibc
import GymcardCore

/// Binary output and the terminal. The files themselves are written by `SymbolFile.write`: standard
/// output for `-`, otherwise the path as Storage's `UserFile` writes what a person names (a device, FIFO
/// or `/dev/fd/N` written in place, a regular file replaced atomically keeping its mode, a new file
/// created complete or not at all).
enum OutputFile {
    /// Refuses to pour a binary image onto a terminal (as age does): `-` when standard output is a
    /// terminal, or a path that names one (`/dev/tty`, `/dev/stdout`, `/dev/pts/3`), unless `force`.
    /// `example` is the file name the advice redirects to (`card.png`).
    static func checkBinary(to path: String?, what: String, example: String = "card.png", force: Bool) throws
    {
        guard let path, !force, namesTerminal(path) else { return }
        throw Failure(
            "refusing to write \(what) to the terminal; redirect it (> \(example)), give a file name, or use --force",
            status: .usage)
    }

    /// Whether writing to `path` writes to a terminal: a character device that is one (opened without
    /// becoming the controlling terminal, and without waiting, to ask; closed again).
    static func namesTerminal(_ path: String) -> Bool {
        if path == "-" { return isatty(STDOUT_FILENO) == 1 }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return false }
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return isatty(descriptor) == 1
    }
}

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
    /// terminal, unless `force`. `example` is the file name the advice redirects to (`card.png`).
    static func checkBinary(to path: String?, what: String, example: String = "card.png", force: Bool) throws
    {
        guard path == "-", !force, isatty(STDOUT_FILENO) == 1 else { return }
        throw Failure(
            "refusing to write \(what) to the terminal; redirect it (> \(example)), give a file name, or use --force",
            status: .usage)
    }
}

import Glibc
import GymcardCore

/// Where command output goes: standard output for `-`, otherwise the path as Storage's `UserFile` writes
/// what a person names (a device, FIFO or `/dev/fd/N` written in place, a regular file replaced
/// atomically keeping its mode, a new file created complete or not at all).
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws { try SymbolFile.write(bytes, to: path) }

    /// Refuses to pour a binary image onto a terminal (as age does): `-` when standard output is a
    /// terminal, unless `force`.
    static func checkBinary(to path: String?, what: String, force: Bool) throws {
        guard path == "-", !force, isatty(STDOUT_FILENO) == 1 else { return }
        throw Failure(
            "refusing to write \(what) to the terminal; redirect it (> card.png), give a file name, or use --force",
            status: .usage)
    }
}

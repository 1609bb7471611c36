import Glibc
import Storage

/// Bytes to a path a person named on the command line (`--png card.png`, `--ics -`): `-` is standard
/// output; any other path is written as Storage's `UserFile` writes it (a device, FIFO or `/dev/fd/N` in
/// place, a regular file replaced atomically keeping its mode, a new file complete or not at all).
public enum NamedOutput {
    /// Writes `bytes` to `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws(NamedOutputProblem) {
        do {
            if path == "-" {
                // After whatever `print` buffered, so the bytes come in the order they were written.
                fflush(nil)
                try AtomicFile.writeAll(bytes, to: STDOUT_FILENO, path: "standard output")
            } else {
                try UserFile.write(bytes, to: path)
            }
        } catch { throw NamedOutputProblem(error: error, standardOutput: path == "-") }
    }

    /// ``write(_:to:)`` for `path`, as a use case takes its writer (`CardExport.export`'s `write`).
    public static func writer(to path: String) -> ([UInt8]) throws(StorageError) -> Void {
        { bytes throws(StorageError) in
            do throws(NamedOutputProblem) { try write(bytes, to: path) } catch { throw error.error }
        }
    }
}

/// A named output that could not be written.
public struct NamedOutputProblem: Error, CustomStringConvertible {
    /// Why, with the path (`standard output` for `-`).
    public var error: StorageError
    /// Whether the path was `-`.
    public var standardOutput: Bool

    /// What happened: `cannot write <path>: <why>`, as every failed write of gymcard is said.
    public var description: String { "cannot write \(error.description)" }
}

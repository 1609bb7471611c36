import Glibc
import Storage

/// Where command output goes: a file replaced atomically, or standard output for `-`.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            do { try AtomicFile.writeAll(bytes, to: STDOUT_FILENO, path: "standard output") } catch {
                throw Failure("could not write to standard output: \(error.description)", status: .ioError)
            }
            return
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw Failure("cannot write \(error.description)", status: .ioError)
        }
    }
}

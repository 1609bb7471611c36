import Foundation

/// Stand-ins for programs gymcard runs (`notify-send`, `systemctl`), written so they can be run at once.
public enum ExecutableScript {
    /// Writes `text` to `path` with mode 0755 through a descriptor that is closed on exec.
    ///
    /// Foundation's file writing opens without `O_CLOEXEC`: a process another test spawns at that moment
    /// inherits the descriptor, and while anything holds the script open for writing, running it fails
    /// with ETXTBSY ("text file busy"). A full run on a loaded machine lost a `notify-send` stand-in so.
    public static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(.EIO) }
        // An existing file keeps its mode through O_CREAT; make it executable either way.
        guard fchmod(descriptor, 0o755) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}

import Glibc

/// Replaces files all at once: readers see the old file or the new one, never half of either.
///
/// The bytes go to a temporary file in the same directory (same file system, so `rename` is atomic),
/// which is then renamed over the target. With `durable`, the file and then the directory are fsynced so
/// the new content survives a power cut; Foundation's `.atomic` writes do neither, and create files 0666
/// minus umask.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically with the given permissions.
    ///
    /// On any failure the temporary file is removed and the target is left as it was.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: mode_t = 0o644, durable: Bool = false
    ) throws(StorageError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw .isDirectory(path: path) }
        let directory = Self.directory(of: path)
        if try writeUnnamed(bytes, to: path, directory: directory, permissions: permissions, durable: durable)
        {
            return
        }
        try writeThroughTemporaryName(
            bytes, to: path, directory: directory, permissions: permissions, durable: durable)
    }

    /// Linux's `O_TMPFILE`: an unnamed file in the directory that `linkat` names in one step once it is
    /// complete. It saves the temporary directory entry and the rename, which dominate the cost of
    /// writing many small files. Returns `false` (nothing written) when the file system does not support
    /// it or the target already exists, so the caller falls back to a temporary name and `rename`.
    private static func writeUnnamed(
        _ bytes: [UInt8], to path: String, directory: String, permissions: mode_t, durable: Bool
    ) throws(StorageError) -> Bool {
        var status = stat()
        guard lstat(path, &status) != 0, errno == ENOENT else { return false }
        let descriptor = open(directory, openTemporaryFileFlag | O_WRONLY | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            if errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL { return false }
            throw StorageError(errno: errno, path: path, operation: "create")
        }
        defer { close(descriptor) }
        try fill(descriptor, with: bytes, path: path, permissions: permissions, durable: durable)
        guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else {
            // Another writer created the target meanwhile, or /proc is not mounted: take the other path.
            if errno == EEXIST || errno == ENOENT { return false }
            throw StorageError(errno: errno, path: path, operation: "create")
        }
        if durable { syncDirectory(directory) }
        return true
    }

    private static func writeThroughTemporaryName(
        _ bytes: [UInt8], to path: String, directory: String, permissions: mode_t, durable: Bool
    ) throws(StorageError) {
        var template = Array((directory + "/." + Self.baseName(of: path) + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw StorageError(errno: errno, path: path, operation: "create a file beside it")
        }
        let temporary = String(
            decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try fill(descriptor, with: bytes, path: path, permissions: permissions, durable: durable)
        }
        guard rename(temporary, path) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "replace")
        }
        succeeded = true
        if durable { syncDirectory(directory) }
    }

    /// Sets the exact mode (both ways of creating honour the umask), writes, and flushes when durable.
    private static func fill(
        _ descriptor: Int32, with bytes: [UInt8], path: String, permissions: mode_t, durable: Bool
    ) throws(StorageError) {
        guard fchmod(descriptor, permissions) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "set permissions")
        }
        try writeAll(bytes, to: descriptor, path: path)
        if durable, fsync(descriptor) != 0 {
            throw StorageError(errno: errno, path: path, operation: "flush")
        }
    }

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc only declares under `_GNU_SOURCE`; the value
    /// is the generic Linux one used on x86_64 and arm64.
    private static let openTemporaryFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Creates `path`, which must not exist, and writes `bytes`; on failure nothing is left at `path`.
    ///
    /// Not atomic by itself: for files in a private directory that is renamed into place when complete
    /// (a batch's staging directory), where no one can see a file while it is written.
    public static func create(_ bytes: [UInt8], at path: String, permissions: mode_t = 0o644)
        throws(StorageError)
    {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw StorageError(errno: errno, path: path, operation: "create") }
        do {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, path: path)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Writes every byte to an open descriptor, retrying short writes and interrupted calls.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(StorageError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw StorageError(errno: errno, path: path, operation: "write")
            }
            offset += written
        }
    }

    /// Flushes a directory's entries, so a rename inside it survives a crash.
    public static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Everything before the last `/`, or `.`.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

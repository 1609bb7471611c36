import Glibc

/// Files a person names on the command line (`--png F`, `--svg F`, `--qr F`, `--ics F`, the files of
/// `render --out DIR`), written the way zint, qrencode and age write them: what is already there
/// decides how.
///
/// - A device or FIFO (`/dev/null`, a named pipe), directly or through symbolic links, is opened and
///   written; it is never renamed over. A socket is refused (it cannot be opened).
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` (what a shell's `>(…)` passes) are
///   the process's own descriptor N, written as it is.
/// - A regular file, directly or through symbolic links, is replaced atomically at the link's final
///   target (the links stay links) and keeps its mode, and its owner and group as far as allowed.
/// - A new file is created atomically, with the mode `open(2)` would give it (0666 minus the umask, or
///   the directory's default ACL).
/// - A directory or a socket is refused.
public enum UserFile {
    /// How a path will be written.
    public enum Target: Equatable, Sendable {
        /// An open descriptor of this process (`/dev/stdout`, `/dev/fd/N`).
        case descriptor(Int32)
        /// An existing file that is not a regular file (device, FIFO): opened and written.
        case special(path: String)
        /// An existing regular file at this (resolved) path: replaced atomically, keeping its mode.
        case regularFile(path: String, mode: mode_t, owner: uid_t, group: gid_t)
        /// Nothing exists at this (resolved) path yet.
        case newFile(path: String)
    }

    /// Writes `bytes` to the path a person named.
    public static func write(_ bytes: [UInt8], to path: String) throws(StorageError) {
        switch try target(of: path) {
        case .descriptor(let descriptor):
            try AtomicFile.writeAll(bytes, to: descriptor, path: path)
        case .special(let resolved):
            // No O_TRUNC or O_CREAT: the file exists and is not a regular file. A FIFO without a reader
            // waits for one, as it does for zint and age.
            let descriptor = open(resolved, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else { throw StorageError(errno: errno, path: path, operation: "open") }
            defer { close(descriptor) }
            try AtomicFile.writeAll(bytes, to: descriptor, path: path)
        case .regularFile(let resolved, let mode, let owner, let group):
            try AtomicFile.write(
                bytes, to: resolved, permissions: .sameAs(mode: mode, owner: owner, group: group),
                durable: false,
                replacing: true)
        case .newFile(let resolved):
            try AtomicFile.write(bytes, to: resolved, permissions: .asNewFile)
        }
    }

    /// How `path` would be written, following symbolic links to what they finally name.
    public static func target(of path: String) throws(StorageError) -> Target {
        guard !path.isEmpty else { throw .notFound(path: path) }
        guard !path.hasSuffix("/") else { throw .isDirectory(path: path) }
        var current = path
        // As many links as the kernel follows (MAXSYMLINKS, 40).
        for _ in 0...40 {
            if let descriptor = ownDescriptor(named: current) {
                guard fcntl(descriptor, F_GETFD) >= 0 else {
                    throw .system(
                        path: path, operation: "write", reason: "file descriptor \(descriptor) is not open")
                }
                return .descriptor(descriptor)
            }
            var status = stat()
            guard lstat(current, &status) == 0 else {
                if errno == ENOENT { return .newFile(path: current) }
                throw StorageError(errno: errno, path: path, operation: "open")
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                guard let link = readLink(current) else {
                    throw StorageError(errno: errno, path: path, operation: "follow the link")
                }
                current = link.hasPrefix("/") ? link : AtomicFile.directory(of: current) + "/" + link
            case S_IFREG:
                return .regularFile(
                    path: current, mode: status.st_mode & 0o7777, owner: status.st_uid, group: status.st_gid)
            case S_IFDIR:
                throw .isDirectory(path: path)
            case S_IFSOCK:
                throw .unusable(
                    path: path, reason: "is a socket, which cannot be opened as a file; give a file name")
            default:
                return .special(path: current)
            }
        }
        throw StorageError(errno: ELOOP, path: path, operation: "follow the link")
    }

    /// N for `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N`, `/proc/<this process>/fd/N`, and
    /// 0, 1, 2 for `/dev/stdin`, `/dev/stdout`, `/dev/stderr`.
    static func ownDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        let prefixes = ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"]
        for prefix in prefixes where path.hasPrefix(prefix) {
            let number = path.dropFirst(prefix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }), number.count < 10 else {
                return nil
            }
            return Int32(number)
        }
        return nil
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

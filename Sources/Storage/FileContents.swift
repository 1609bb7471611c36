import Glibc

/// Whole small files (config, state, caches) read in one go, with a size limit.
public enum FileContents {
    /// The bytes of the regular file at `path`, or `nil` when there is no file there. With `streams`, a
    /// pipe, FIFO, socket or character device is read to its end too (`import <(cat link.txt)` names
    /// `/dev/fd/63`, a pipe), as `export >(…)` writes one.
    ///
    /// - Throws: ``StorageError`` when the path is a directory, not a regular file (unless `streams`),
    ///   unreadable, or larger than `limitBytes`.
    public static func read(_ path: String, limitBytes: Int = 16 << 20, streams: Bool = false)
        throws(StorageError) -> [UInt8]?
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw StorageError(errno: errno, path: path, operation: "open")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "read")
        }
        let kind = status.st_mode & S_IFMT
        let isStream = kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
        guard kind == S_IFREG || (streams && isStream) else {
            if kind == S_IFDIR { throw .isDirectory(path: path) }
            throw .system(path: path, operation: "read", reason: "not a regular file")
        }
        guard status.st_size <= limitBytes else {
            throw .system(path: path, operation: "read", reason: "larger than \(limitBytes >> 20) MiB")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(4096, Int(status.st_size) + 1))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(errno: errno, path: path, operation: "read")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limitBytes else {
                throw .system(path: path, operation: "read", reason: "larger than \(limitBytes >> 20) MiB")
            }
        }
        return bytes
    }
}

extension FileContents {
    /// Everything on standard input, up to `limitBytes`.
    public static func readStandardInput(limitBytes: Int = 16 << 20) throws(StorageError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(errno: errno, path: "standard input", operation: "read")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limitBytes else {
                throw .system(
                    path: "standard input", operation: "read", reason: "larger than \(limitBytes >> 20) MiB")
            }
        }
    }
}

/// Directories created with their missing parents.
public enum Directory {
    /// Creates `path` and any missing parents with `permissions`; with `tighten`, an existing directory
    /// whose mode allows more is narrowed to `permissions` (secrets live in 0700 directories).
    public static func create(_ path: String, permissions: mode_t, tighten: Bool = false) throws(StorageError)
    {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, permissions) != 0, errno != EEXIST {
                throw StorageError(errno: errno, path: prefix, operation: "create")
            }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .notDirectory(path: path)
        }
        if tighten, status.st_mode & 0o777 & ~permissions != 0 { chmod(path, permissions) }
    }
}

import Glibc

/// Replaces files all at once: readers see the old file or the new one, never half of either.
///
/// The bytes go to an unnamed file in the target's directory (Linux's `O_TMPFILE`), which `linkat` names
/// once complete: a new file appears in one step, and a killed writer leaves nothing. An existing file is
/// replaced by linking the complete file under a temporary name and renaming that over it; the temporary
/// name is registered with ``TemporaryNames`` so that a handled signal removes it. Where `O_TMPFILE` is
/// unsupported (some network file systems), the bytes go to a named temporary file instead. With
/// `durable`, the file and then the directory are fsynced so the result survives a power cut;
/// Foundation's `.atomic` writes do neither, and create files 0666 minus umask.
///
/// The target itself is replaced: a symbolic link at `path` is replaced, not followed. Paths a person
/// names go through ``UserFile``, which resolves them first.
public enum AtomicFile {
    /// How the written file's permission bits and owner are set.
    public enum Permissions: Sendable, Equatable {
        /// Exactly this mode, whatever the umask (gymcard's own files: the card is 0600).
        case exactly(mode_t)
        /// As a new file by `open(2)`: 0666 minus the umask, or the directory's default ACL.
        case asNewFile
        /// The mode, owner and group of the file being replaced (owner and group as far as allowed).
        case sameAs(mode: mode_t, owner: uid_t, group: gid_t)
    }

    /// Writes `bytes` to `path` atomically with the given permissions.
    ///
    /// On any failure nothing new is left behind and the target is as it was.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: mode_t = 0o644, durable: Bool = false
    ) throws(StorageError) {
        try write(bytes, to: path, permissions: .exactly(permissions), durable: durable)
    }

    /// Writes `bytes` to `path` atomically, with permissions set as `permissions` says.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: Permissions, durable: Bool = false
    ) throws(StorageError) {
        try write(bytes, to: path, permissions: permissions, durable: durable, replacing: false)
    }

    /// The same; `replacing` says the target is known to exist, which saves trying to link a new name.
    static func write(
        _ bytes: [UInt8], to path: String, permissions: Permissions, durable: Bool, replacing: Bool
    ) throws(StorageError) {
        guard !path.hasSuffix("/") else { throw .isDirectory(path: path) }
        let directory = Self.directory(of: path)
        let descriptor = open(directory, openTemporaryFileFlag | O_WRONLY | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL else {
                throw StorageError(errno: code, path: path, operation: "create")
            }
            try writeThroughTemporaryName(bytes, to: path, permissions: permissions, durable: durable)
            return
        }
        defer { close(descriptor) }
        try fill(descriptor, with: bytes, path: path, permissions: permissions, durable: durable)
        let unnamed = "/proc/self/fd/\(descriptor)"
        if !replacing, linkat(AT_FDCWD, unnamed, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
            if durable { syncDirectory(directory) }
            return
        }
        guard replacing || errno == EEXIST else {
            // /proc is not mounted (ENOENT on the magic link while the directory exists): name it the
            // other way.
            if errno == ENOENT, directoryExists(directory) {
                try writeThroughTemporaryName(bytes, to: path, permissions: permissions, durable: durable)
                return
            }
            throw StorageError(errno: errno, path: path, operation: "create")
        }
        // The target exists: link the complete file under a temporary name, then rename it over.
        let (temporary, registration) = try linkUnderTemporaryName(unnamed, beside: path)
        defer { TemporaryNames.unregister(registration) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw StorageError(errno: code, path: path, operation: "replace")
        }
        if durable { syncDirectory(directory) }
    }

    /// Creates a hidden name beside `path` (`.NAME.tmp-XXXXXX`) for the file `source`, registered for
    /// removal on a signal.
    private static func linkUnderTemporaryName(_ source: String, beside path: String) throws(StorageError)
        -> (String, TemporaryNames.Registration?)
    {
        let prefix = directory(of: path) + "/." + baseName(of: path) + ".tmp-"
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let name = prefix + String((0..<6).map { _ in alphabet.randomElement(using: &generator) ?? "x" })
            let registration = TemporaryNames.register(name, as: .file)
            if linkat(AT_FDCWD, source, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 {
                return (name, registration)
            }
            let code = errno
            TemporaryNames.unregister(registration)
            guard code == EEXIST else {
                throw StorageError(errno: code, path: path, operation: "create a file beside it")
            }
        }
        throw StorageError(errno: EEXIST, path: path, operation: "create a file beside it")
    }

    /// Where `O_TMPFILE` is unsupported: a named temporary file (`mkstemp`), registered for removal on a
    /// signal, renamed over the target once complete.
    private static func writeThroughTemporaryName(
        _ bytes: [UInt8], to path: String, permissions: Permissions, durable: Bool
    ) throws(StorageError) {
        let directory = Self.directory(of: path)
        var template = Array((directory + "/." + Self.baseName(of: path) + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw StorageError(errno: errno, path: path, operation: "create a file beside it")
        }
        let temporary = String(
            decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let registration = TemporaryNames.register(temporary, as: .file)
        defer { TemporaryNames.unregister(registration) }
        var succeeded = false
        defer { if !succeeded { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            // mkstemp creates 0600: a new file gets what open(2) would have given it.
            let mode =
                permissions == .asNewFile ? Permissions.exactly(0o666 & ~ProcessUmask.value) : permissions
            try fill(descriptor, with: bytes, path: path, permissions: mode, durable: durable)
        }
        guard rename(temporary, path) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "replace")
        }
        succeeded = true
        if durable { syncDirectory(directory) }
    }

    /// Sets the mode (and owner), writes, and flushes when durable.
    private static func fill(
        _ descriptor: Int32, with bytes: [UInt8], path: String, permissions: Permissions, durable: Bool
    ) throws(StorageError) {
        switch permissions {
        case .asNewFile: break
        case .exactly(let mode):
            guard fchmod(descriptor, mode) == 0 else {
                throw StorageError(errno: errno, path: path, operation: "set permissions")
            }
        case .sameAs(let mode, let owner, let group):
            // Owner first: chown clears set-user-ID bits, which the mode then restores. Only root may give
            // a file away; anyone may keep a group they belong to. Failing either is not an error.
            if owner != geteuid() || group != getegid() {
                if fchown(descriptor, owner, group) != 0 { _ = fchown(descriptor, uid_t.max, group) }
            }
            guard fchmod(descriptor, mode & 0o7777) == 0 else {
                throw StorageError(errno: errno, path: path, operation: "set permissions")
            }
        }
        try writeAll(bytes, to: descriptor, path: path)
        if durable, fsync(descriptor) != 0 {
            throw StorageError(errno: errno, path: path, operation: "flush")
        }
    }

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc only declares under `_GNU_SOURCE`; the value
    /// is the generic Linux one used on x86_64 and arm64.
    private static let openTemporaryFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

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
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Everything before the last `/`, or `.`.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func directoryExists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

/// The process's file-creation mask, read without changing it (`umask(2)` can only be read by setting
/// it, which would race with threads creating files).
enum ProcessUmask {
    static let value: mode_t = {
        // Linux 4.7+ reports it in /proc/self/status as "Umask:\t0022".
        if let bytes = try? FileContents.read("/proc/self/status", limitBytes: 1 << 16) {
            let text = String(decoding: bytes, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
                if let mask = mode_t(String(line.dropFirst(6).filter { $0.isNumber }), radix: 8) {
                    return mask
                }
            }
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}

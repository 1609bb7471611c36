import Glibc

/// Swaps two files' names in one step: Linux's `renameat2(2)` with `RENAME_EXCHANGE`, so a reader sees
/// both files as they were or both swapped, never one of them missing.
public enum FileExchange {
    /// glibc's `renameat2` (glibc 2.28 and later). Swift's Glibc module does not import it (stdio.h
    /// declares it only under `_GNU_SOURCE`), so it is looked up in the C library already loaded.
    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// `RENAME_EXCHANGE` from linux/fs.h.
    private static let exchangeFlag: UInt32 = 1 << 1

    /// Gives `first`'s file the name `second` and `second`'s the name `first`; both must exist in the
    /// same directory.
    ///
    /// Where the file system cannot exchange names (`EINVAL`: some network file systems) or the kernel is
    /// older than 3.15 (`ENOSYS`), it is done in three steps: `second` is linked under `staging`, `first`
    /// renamed over `second`, then `staging` renamed to `first`. A crash in between leaves `first`'s file
    /// named `second` and `second`'s named `staging` (registered with ``TemporaryNames``, so a handled
    /// signal removes it).
    public static func exchange(_ first: String, _ second: String, staging: String) throws(StorageError) {
        if let symbol = dlsym(nil, "renameat2") {
            let renameAt2 = unsafeBitCast(symbol, to: RenameAt2.self)
            if renameAt2(AT_FDCWD, first, AT_FDCWD, second, exchangeFlag) == 0 { return }
            guard errno == EINVAL || errno == ENOSYS else {
                throw StorageError(errno: errno, path: first, operation: "swap with \(second)")
            }
        }
        try exchangeInSteps(first, second, staging: staging)
    }

    /// The three steps ``exchange(_:_:staging:)`` falls back to (internal: tests run them on any file
    /// system).
    static func exchangeInSteps(_ first: String, _ second: String, staging: String) throws(StorageError) {
        unlink(staging)
        let registration = TemporaryNames.register(staging, as: .file)
        defer { TemporaryNames.unregister(registration) }
        guard link(second, staging) == 0, rename(first, second) == 0 else {
            let code = errno
            unlink(staging)
            throw StorageError(errno: code, path: first, operation: "swap with \(second)")
        }
        // From here `staging` holds the only name of `second`'s file: it is never removed.
        guard rename(staging, first) == 0 else {
            throw StorageError(errno: errno, path: first, operation: "swap with \(second)")
        }
    }
}

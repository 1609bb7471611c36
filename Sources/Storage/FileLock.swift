import Glibc

/// An exclusive advisory lock on a file (`flock`), held for the duration of a closure, so that two
/// gymcard processes never interleave a read-modify-write of the same files.
public enum FileLock {
    /// Runs `body` while holding the lock on `path` (created 0600 when missing); waits for other holders.
    public static func withExclusiveLock<Failure: Error>(
        on path: String, _ body: () throws(Failure) -> Void
    ) throws(LockError<Failure>) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .storage(StorageError(errno: errno, path: path, operation: "lock"))
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .storage(StorageError(errno: errno, path: path, operation: "lock"))
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        do { try body() } catch { throw .body(error) }
    }

    /// Either the lock could not be taken, or the body failed.
    public enum LockError<Failure: Error>: Error {
        /// Taking the lock failed.
        case storage(StorageError)
        /// The body threw.
        case body(Failure)
    }
}

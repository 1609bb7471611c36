import Glibc

/// An exclusive advisory lock on a file (`flock`), held for the duration of a closure, so that two
/// gymcard processes never interleave a read-modify-write of the same files.
public enum FileLock {
    /// Runs `body` while holding the lock on `path` (created 0600 when missing) and returns what it
    /// returns. When another process holds the lock, `whenBusy` is called once and the call waits for it.
    public static func withExclusiveLock<Result, Failure: Error>(
        on path: String, whenBusy: () -> Void = {}, _ body: () throws(Failure) -> Result
    ) throws(LockError<Failure>) -> Result {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .storage(StorageError(errno: errno, path: path, operation: "lock"))
        }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .storage(StorageError(errno: errno, path: path, operation: "lock"))
            }
            whenBusy()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    throw .storage(StorageError(errno: errno, path: path, operation: "lock"))
                }
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        do { return try body() } catch { throw .body(error) }
    }

    /// Either the lock could not be taken, or the body failed.
    public enum LockError<Failure: Error>: Error {
        /// Taking the lock failed.
        case storage(StorageError)
        /// The body threw.
        case body(Failure)
    }
}

import Foundation
import Synchronization

/// An exclusive `flock` the test holds on a file, as a gymcard process would, so that gymcard processes
/// started meanwhile queue behind it: a barrier that makes them overlap for certain, not by timing.
public final class HeldLock: Sendable {
    private let descriptor: Int32
    /// The end of the lock file's key in /proc/locks (`fe:00:6643713`: device, then inode).
    private let fileKey: String
    private let released = Atomic(false)

    /// Takes the lock on `path` (created when missing).
    public init(_ path: String) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var status = stat()
        fstat(descriptor, &status)
        fileKey = ":\(status.st_ino)"
    }

    deinit { release() }

    /// Lets the queued processes go (also done when the value is dropped); only the first call closes the
    /// descriptor. A second close would close whatever the number was given to since, such as another
    /// test's new pipe: its reader then fails with EBADF (Foundation's FileHandle traps on that).
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The processes queued on this lock now (/proc/locks lists each waiter with `->`).
    public func waiters() -> Set<Int32> {
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        var pids: Set<Int32> = []
        for line in table.split(separator: "\n") where line.contains("->") {
            let fields = line.split(separator: " ")
            // `3: -> FLOCK  ADVISORY  WRITE 11270 fe:00:6643713 0 EOF`: the pid is the field before the key.
            if let index = fields.firstIndex(where: { $0.hasSuffix(fileKey) }), index > 0,
                let pid = Int32(fields[index - 1])
            {
                pids.insert(pid)
            }
        }
        return pids
    }

    /// Waits until every process in `processes` is queued on the lock or has ended; false after
    /// `timeoutSeconds` (a hang is a failure, never a wait for ever).
    public func waitUntilQueued(_ processes: [ChildProcess], timeoutSeconds: Double = 120) async -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            let queued = waiters()
            if processes.allSatisfy({ $0.hasEnded || queued.contains($0.processIdentifier) }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// ``waitUntilQueued(_:timeoutSeconds:)`` for Foundation's `Process`, blocking the calling thread.
    /// Prefer ``ChildProcess``: `Process` and `Pipe` are not safe to use from several threads at once.
    public func waitUntilQueued(_ processes: [Process], timeoutSeconds: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            let queued = waiters()
            if processes.allSatisfy({ !$0.isRunning || queued.contains($0.processIdentifier) }) {
                return true
            }
            usleep(20_000)
        }
        return false
    }
}

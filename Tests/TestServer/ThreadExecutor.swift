import Foundation
import Synchronization

/// A task executor that runs its jobs, in order, on one thread of its own.
///
/// On Linux the concurrency pool has as many threads as cores (two on the CI machine), and tests that
/// compute on it (making photos, scrypt) can hold both for seconds. What must answer in time meanwhile —
/// the test HTTP server's handlers, the harness's process input and output — prefers one of these
/// instead (`Task(executorPreference:)`).
public final class ThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let waiting = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name`.
    public init(name: String) {
        let thread = Thread { [self] in
            while true {
                waiting.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    /// Queues a job for the thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }
}

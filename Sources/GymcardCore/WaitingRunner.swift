import Dispatch

/// Runs async work to completion from a synchronous caller (the entry point, which stays synchronous:
/// most commands never need Swift concurrency, and an async `main` moves all of them onto a Dispatch
/// worker thread at start-up). The caller's thread waits; the work runs in a detached task.
public enum WaitingRunner {
    /// Runs `body` with `value` (a parsed command, not `Sendable`: only the task uses it) and waits for
    /// it; rethrows its error.
    public static func run<Value>(_ value: Value, _ body: @escaping @Sendable (Value) async throws -> Void)
        throws
    {
        let box = Box(value: value)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await body(box.value) } catch { box.failure = error }
            done.signal()
        }
        done.wait()
        if let failure = box.failure { throw failure }
    }

    /// The value handed to the task, and its failure handed back. The semaphore orders every access: the
    /// task reads and writes before `signal`, the waiting thread reads after `wait`.
    private final class Box<Value>: @unchecked Sendable {
        let value: Value
        var failure: (any Error)?
        init(value: Value) { self.value = value }
    }
}

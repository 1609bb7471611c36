import Foundation
import Synchronization

/// Blocking and CPU-heavy work in tests, kept off the Swift concurrency pool.
///
/// On Linux the pool has as many threads as cores (two on the CI machine). A test that blocks one of
/// them (waiting for a process) or computes on it for seconds (scanning photos, scrypt) starves the
/// in-process HTTP servers of other suites, whose answers then time out: a full run failed this way with
/// "127.0.0.1 did not answer within 9.5 s". Such work runs on a thread of its own while the test
/// suspends. CPU-heavy work also takes one of as many permits as there are cores first, so that it runs
/// no wider than it did on the pool and each piece keeps the time its budget assumes.
public enum OffThePool {
    /// Runs blocking work (waiting for a process, a lock, a pipe) on a thread of its own.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    /// Runs CPU-heavy work on a thread of its own, at most one piece per core at a time.
    public static func compute<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        await cores.acquire()
        defer { cores.release() }
        return try await run(body)
    }

    /// ``compute(_:)`` for work that cannot fail.
    public static func compute<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await cores.acquire()
        defer { cores.release() }
        return await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }

    /// Runs short work (the decode of a terminal screen's few hundred pixels) on a thread of its own
    /// without taking a permit: a check that a test repeats while a view's timeout runs must not queue
    /// behind minutes of other suites' scans.
    public static func glance<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }

    private static let cores = Permits(ProcessInfo.processInfo.activeProcessorCount)
}

/// A counting semaphore whose waiters suspend instead of blocking a thread.
final class Permits: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(available: max(1, count))) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

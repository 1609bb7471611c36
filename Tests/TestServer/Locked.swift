import Synchronization

/// A value shared between a test and its server's handlers (a Mutex in a class, so closures can hold it).
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Wraps `value`.
    public init(_ value: Value) { mutex = Mutex(value) }

    /// Reads or changes the value under the lock.
    public func withLock<Result: Sendable>(_ body: (inout sending Value) throws -> sending Result) rethrows
        -> Result
    {
        try mutex.withLock(body)
    }
}

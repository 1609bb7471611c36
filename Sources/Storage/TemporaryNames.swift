import Glibc
import Synchronization

/// Names that exist only while a write is in progress (a temporary file about to be renamed over its
/// target, a directory made for output that is still empty), removed by ``removeAll()`` when a signal
/// ends the process first. git's tempfile.c does the same.
///
/// ``removeAll()`` is async-signal-safe: it reads preallocated slots, each published with an atomic
/// state word, and calls only `unlink` and `rmdir`. Registering takes a slot under a lock; when every
/// slot is taken (more writers at once than ``capacity``), or a path is longer than `PATH_MAX`, the name
/// goes unregistered and a signal may leave it behind.
public enum TemporaryNames {
    /// What to remove.
    public enum Kind: Sendable {
        /// A file: `unlink`.
        case file
        /// A directory, only when it is empty: `rmdir`.
        case emptyDirectory
    }

    /// A registered name; hand it back to ``unregister(_:)`` once the name is final or gone.
    public struct Registration: Sendable {
        fileprivate let slot: Int
    }

    /// Slots for names registered at once.
    public static let capacity = 256

    /// Registers `path` for removal if the process is killed by a handled signal before ``unregister(_:)``.
    /// Returns `nil` when it could not be registered (see the type's summary).
    public static func register(_ path: String, as kind: Kind) -> Registration? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotBytes, !bytes.contains(0) else { return nil }
        let slots = table.slots
        let slot: Int? = table.free.withLock { free in free.popLast() }
        guard let slot else { return nil }
        let base = slots.names + slot * slotBytes
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count { base[index] = CChar(bitPattern: buffer[index]) }
        }
        base[bytes.count] = 0
        slots.states[slot].store(kind == .file ? State.file : State.directory, ordering: .releasing)
        return Registration(slot: slot)
    }

    /// Forgets a registration: the name is now final (renamed into place) or already removed.
    public static func unregister(_ registration: Registration?) {
        guard let registration else { return }
        table.slots.states[registration.slot].store(State.free, ordering: .releasing)
        table.free.withLock { $0.append(registration.slot) }
    }

    /// Removes every registered name: files first, then directories (so a directory emptied of its own
    /// temporary file can go). Async-signal-safe; call it from a signal handler before `_exit`.
    public static func removeAll() {
        guard let slots = preparedSlots else { return }
        for pass in [State.file, State.directory] {
            for slot in 0..<capacity where slots.states[slot].load(ordering: .acquiring) == pass {
                let name = slots.names + slot * slotBytes
                if pass == State.file { unlink(name) } else { rmdir(name) }
            }
        }
    }

    /// Sets the slots up now, outside any signal handler (the first registration would do it otherwise).
    public static func prepare() { _ = table }

    // MARK: - Slots

    private enum State {
        static let free = 0
        static let file = 1
        static let directory = 2
    }

    private static let slotBytes = Int(PATH_MAX)

    /// The preallocated memory a signal handler reads: a state word and a C string per slot.
    private struct Slots: @unchecked Sendable {
        let states: UnsafeMutablePointer<Atomic<Int>>
        let names: UnsafeMutablePointer<CChar>
    }

    private final class Table: Sendable {
        let slots: Slots
        let free: Mutex<[Int]>

        init() {
            let states = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: TemporaryNames.capacity)
            for slot in 0..<TemporaryNames.capacity { (states + slot).initialize(to: Atomic(State.free)) }
            let names = UnsafeMutablePointer<CChar>.allocate(capacity: TemporaryNames.capacity * slotBytes)
            slots = Slots(states: states, names: names)
            free = Mutex(Array((0..<TemporaryNames.capacity).reversed()))
            TemporaryNames.preparedSlots = slots
        }
    }

    /// Lives for the whole process; never freed.
    private static let table = Table()

    /// The slots once ``table`` exists. A signal handler reads this plain word, never `table` itself,
    /// whose lazy initialisation is not async-signal-safe.
    nonisolated(unsafe) private static var preparedSlots: Slots?
}

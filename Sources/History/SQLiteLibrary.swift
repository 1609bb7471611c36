import CSQLite
import DynamicLoading

/// libsqlite3, opened with `dlopen` on the first history file rather than linked (why:
/// docs/ARCHITECTURE.md §17).
enum SQLiteLibrary {
    /// Its functions, bound on first use. `nonisolated(unsafe)`: the variadic sqlite3_db_config's slot is
    /// imported as a bare pointer, not `Sendable` (§17); never changed once bound.
    nonisolated(unsafe) static let functions = DynamicLibrary.bind(
        .sqlite, names: gymcard_sqlite_function_names(), as: gymcard_sqlite_functions.self)
}

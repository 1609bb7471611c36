import CSQLite
import DynamicLoading

/// libsqlite3, opened with `dlopen` on the first history file instead of linked: linked, the loader maps
/// and relocates it in every gymcard process, 1.2 M instructions of each start (ARCHITECTURE §15), though
/// only the history commands use it. Types and constants come from sqlite3.h (the CSQLite target), the
/// functions from its table there.
enum SQLiteLibrary {
    /// libsqlite3's functions, bound on first use; the error says which library or function is missing.
    /// Never changed once bound; `nonisolated(unsafe)` as Swift imports the variadic sqlite3_db_config's
    /// slot as a bare pointer, which it cannot know to be `Sendable`.
    nonisolated(unsafe) static let functions = DynamicLibrary.bind(
        .sqlite, names: gymcard_sqlite_function_names(), as: gymcard_sqlite_functions.self)

    /// The error when it is missing: a code of its own, which no SQLite call returns (HistoryError words it).
    static let missing = SQLiteError(code: -1, message: "\(SystemLibrary.sqlite.soname) is not installed")
}

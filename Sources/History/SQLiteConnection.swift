import CSQLite
import DynamicLoading

/// A failure reported by SQLite: its primary result code and message.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …), extended codes reduced to their primary one.
    var code: Int32
    /// SQLite's message for it.
    var message: String

    /// The file is damaged or not a database.
    var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// The disk or quota is full.
    var isFull: Bool { code == SQLITE_FULL }
    /// Another process held the lock past the busy timeout.
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// Permission denied or a read-only file system.
    var isReadOnly: Bool { code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN }

    var description: String { message }

    /// libsqlite3 is missing: a code of its own, which no SQLite call returns (HistoryError words it).
    static let libraryMissing = SQLiteError(
        code: -1, message: "\(SystemLibrary.sqlite.soname) is not installed")
}

/// One connection to an SQLite database: the only code that calls SQLite's C API (libsqlite3 from the
/// system, opened by ``SQLiteLibrary``; ARCHITECTURE §9), above it Swift values and Swift errors.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    fileprivate let sqlite: gymcard_sqlite_functions

    /// Opens (with `create`, creating) the database file.
    init(path: String, create: Bool, busyTimeoutMilliseconds: Int32 = 5000) throws(SQLiteError) {
        let flags =
            (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READWRITE)
            | SQLITE_OPEN_NOMUTEX
        guard let sqlite = try? SQLiteLibrary.functions.get() else { throw SQLiteError.libraryMissing }
        self.sqlite = sqlite
        let status = sqlite.sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let error = SQLiteError(
                code: status & 0xFF, message: Self.message(sqlite, handle, fallback: status))
            _ = sqlite.sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        _ = sqlite.sqlite3_extended_result_codes(handle, 0)
        _ = sqlite.sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        withUnsafePointer(to: sqlite) { _ = gymcard_sqlite3_keep_wal_on_close($0, handle) }
    }

    deinit { _ = sqlite.sqlite3_close_v2(handle) }

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite.sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? Self.message(sqlite, handle, fallback: status)
            sqlite.sqlite3_free(message)
            throw SQLiteError(code: status & 0xFF, message: text)
        }
    }

    /// A prepared statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite.sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: the write lock is taken at once, so a
    /// concurrent writer waits for the busy timeout instead of failing part-way), committing when it
    /// returns and rolling back when it throws.
    func writeTransaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The first column of the first row of a query, as an integer (`PRAGMA user_version`, `count(*)`).
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.integer(0) : nil
    }

    /// The first column of the first row of a query, as text (`PRAGMA journal_mode`).
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite.sqlite3_changes(handle)) }

    func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status & 0xFF, message: Self.message(sqlite, handle, fallback: status))
    }

    private static func message(
        _ sqlite: gymcard_sqlite_functions, _ handle: OpaquePointer?, fallback status: Int32
    )
        -> String
    {
        if let handle, let text = sqlite.sqlite3_errmsg(handle) { return String(cString: text) }
        return sqlite.sqlite3_errstr(status).map { String(cString: $0) } ?? "SQLite error \(status)"
    }
}

/// A prepared statement: bind parameters (1-based), step through rows, read columns (0-based).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection
    private var sqlite: gymcard_sqlite_functions { connection.sqlite }

    fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { _ = sqlite.sqlite3_finalize(statement) }

    /// Binds the values to parameters 1, 2, …, after resetting the statement.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        _ = sqlite.sqlite3_reset(statement)
        _ = sqlite.sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite.sqlite3_bind_int64(statement, index, number)
            case .text(let text):
                // SQLite copies the bytes (SQLITE_TRANSIENT) before the C string goes away.
                status = text.withCString { characters in
                    sqlite.sqlite3_bind_text(
                        statement, index, characters, Int32(text.utf8.count), gymcard_sqlite3_transient())
                }
            case .null: status = sqlite.sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw connection.error(status) }
        }
    }

    /// Runs the statement to its next row: `true` with a row to read, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite.sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            _ = sqlite.sqlite3_reset(statement)
            throw connection.error(status)
        }
    }

    /// Binds and runs a statement that returns no rows.
    func run(_ values: [SQLiteValue]) throws(SQLiteError) {
        try bind(values)
        _ = try step()
    }

    /// Ends the current run (a read transaction it holds ends with it); the statement can run again.
    func reset() { _ = sqlite.sqlite3_reset(statement) }

    /// Whether a column is NULL.
    func isNull(_ column: Int32) -> Bool { sqlite.sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// A column as an integer (0 for NULL).
    func integer(_ column: Int32) -> Int64 { sqlite.sqlite3_column_int64(statement, column) }

    /// A column as text (empty for NULL).
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite.sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite.sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case null
}

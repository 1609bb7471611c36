import CSQLite
import Glibc

/// libsqlite3, opened with `dlopen` on the first history file instead of linked: linked, the loader maps
/// and relocates it in every gymcard process, 1.2 M instructions of each start (ARCHITECTURE §15), though
/// only the history commands use it. Types and constants come from sqlite3.h (the CSQLite target).
struct SQLiteLibrary: @unchecked Sendable {
    typealias Handle = OpaquePointer?
    typealias Text = UnsafePointer<CChar>?
    typealias Message = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    typealias RowCallback =
        @convention(c) (UnsafeMutableRawPointer?, Int32, Message, Message) -> Int32
    typealias Destructor = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let open: @convention(c) (Text, UnsafeMutablePointer<Handle>?, Int32, Text) -> Int32
    let close: @convention(c) (Handle) -> Int32
    let extendedResultCodes: @convention(c) (Handle, Int32) -> Int32
    let busyTimeout: @convention(c) (Handle, Int32) -> Int32
    /// `sqlite3_db_config`, variadic: called through CSQLite's shim.
    let databaseConfig: UnsafeMutableRawPointer
    let exec: @convention(c) (Handle, Text, RowCallback?, UnsafeMutableRawPointer?, Message) -> Int32
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let prepare:
        @convention(c) (Handle, Text, Int32, UnsafeMutablePointer<Handle>?, UnsafeMutablePointer<Text>?) ->
            Int32
    let changes: @convention(c) (Handle) -> Int32
    let errorMessage: @convention(c) (Handle) -> Text
    let errorString: @convention(c) (Int32) -> Text
    let finalize: @convention(c) (Handle) -> Int32
    let reset: @convention(c) (Handle) -> Int32
    let clearBindings: @convention(c) (Handle) -> Int32
    let bindInt64: @convention(c) (Handle, Int32, Int64) -> Int32
    let bindText: @convention(c) (Handle, Int32, Text, Int32, Destructor?) -> Int32
    let bindNull: @convention(c) (Handle, Int32) -> Int32
    let step: @convention(c) (Handle) -> Int32
    let columnType: @convention(c) (Handle, Int32) -> Int32
    let columnInt64: @convention(c) (Handle, Int32) -> Int64
    let columnText: @convention(c) (Handle, Int32) -> UnsafePointer<UInt8>?
    let columnBytes: @convention(c) (Handle, Int32) -> Int32

    /// The library, opened once per process; `nil` when libsqlite3 is not installed.
    static let shared: SQLiteLibrary? = try? SQLiteLibrary()

    /// The error when it is missing: a code of its own, which no SQLite call returns (HistoryError words it).
    static let missing = SQLiteError(code: -1, message: "libsqlite3.so.0 is not installed")

    private struct MissingSymbol: Error {}

    private init() throws {
        guard let library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL) else { throw MissingSymbol() }
        func load<Function>(_ name: String) throws -> Function {
            guard let symbol = dlsym(library, name) else { throw MissingSymbol() }
            return unsafeBitCast(symbol, to: Function.self)
        }
        open = try load("sqlite3_open_v2")
        close = try load("sqlite3_close_v2")
        extendedResultCodes = try load("sqlite3_extended_result_codes")
        busyTimeout = try load("sqlite3_busy_timeout")
        databaseConfig = try load("sqlite3_db_config")
        exec = try load("sqlite3_exec")
        free = try load("sqlite3_free")
        prepare = try load("sqlite3_prepare_v2")
        changes = try load("sqlite3_changes")
        errorMessage = try load("sqlite3_errmsg")
        errorString = try load("sqlite3_errstr")
        finalize = try load("sqlite3_finalize")
        reset = try load("sqlite3_reset")
        clearBindings = try load("sqlite3_clear_bindings")
        bindInt64 = try load("sqlite3_bind_int64")
        bindText = try load("sqlite3_bind_text")
        bindNull = try load("sqlite3_bind_null")
        step = try load("sqlite3_step")
        columnType = try load("sqlite3_column_type")
        columnInt64 = try load("sqlite3_column_int64")
        columnText = try load("sqlite3_column_text")
        columnBytes = try load("sqlite3_column_bytes")
    }
}

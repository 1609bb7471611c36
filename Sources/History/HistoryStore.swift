import DynamicLoading
import FoundationEssentials
import Glibc
import Storage

/// The occupancy history: `$XDG_STATE_HOME/gymcard/history.sqlite3`, one row per collection attempt and
/// one per facility reading, in SQLite (the system's libsqlite3).
///
/// Several gymcard processes write at once (a timer, a `--watch`, a manual run): the database is in WAL
/// mode, writers take the lock at the start of their transaction and wait up to 5 s for each other.
/// A damaged file is moved aside with one warning and a new history started; a full disk is an error the
/// caller reports (the reading was shown, not recorded). The file is 0600 in a 0700 directory.
public final class HistoryStore {
    /// The database file.
    public let path: String
    /// Things to tell the person once (a damaged file moved aside).
    public private(set) var warnings: [String] = []
    private var connection: SQLiteConnection
    /// The file the connection was opened on, to tell whether another gymcard has since moved it aside.
    private var identity: FileIdentity?
    /// The time a damaged file's new name is made from (tests choose it).
    private let clock: @Sendable () -> Date
    /// Opened only to read (`doctor`): a damaged file is reported, not moved aside.
    private let readOnly: Bool

    /// The history file under the XDG state home.
    public static func path(_ directories: XDGDirectories) -> String {
        directories.stateHome + "/gymcard/history.sqlite3"
    }

    /// Opens the history at `path`, creating it (and its directory) when missing.
    public convenience init(path: String) throws(HistoryError) {
        try self.init(path: path, clock: { Date() })
    }

    /// The test hook: a clock for the names damaged files are moved to.
    convenience init(path: String, clock: @escaping @Sendable () -> Date) throws(HistoryError) {
        var warnings: [String] = []
        let (connection, identity) = try Self.openConnection(
            path, create: true, clock: clock, warnings: &warnings)
        self.init(path: path, connection: connection, identity: identity, clock: clock, warnings: warnings)
    }

    private init(
        path: String, connection: SQLiteConnection, identity: FileIdentity?,
        clock: @escaping @Sendable () -> Date, warnings: [String], readOnly: Bool = false
    ) {
        self.readOnly = readOnly
        self.path = path
        self.connection = connection
        self.identity = identity
        self.clock = clock
        self.warnings = warnings
    }

    /// Opens an existing history, or returns `nil` when there is none yet (readers never create one).
    /// `readOnly` (`doctor` looking) changes nothing: the file is not switched to WAL or migrated, and a
    /// damaged one is left where it is and reported (``HistoryError/damaged(path:)``).
    public static func openIfPresent(path: String, readOnly: Bool = false) throws(HistoryError)
        -> HistoryStore?
    {
        guard FileIdentity(path) != nil else { return nil }
        var warnings: [String] = []
        let clock: @Sendable () -> Date = { Date() }
        let (connection, identity) = try openConnection(
            path, create: false, readOnly: readOnly, clock: clock, warnings: &warnings)
        return HistoryStore(
            path: path, connection: connection, identity: identity, clock: clock, warnings: warnings,
            readOnly: readOnly)
    }

    /// Runs a database operation; a file found damaged on the way is moved aside once, with a warning,
    /// and the operation run again on a new history (or on the new history another gymcard started
    /// after finding the same damage).
    func perform<Result>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result)
        throws(HistoryError) -> Result
    {
        do { return try body(connection) } catch  where error.isCorrupt {
            guard !readOnly else { throw .damaged(path: path) }
            (connection, identity) = try Self.replaceDamaged(
                path, found: identity, clock: clock, warnings: &warnings)
            do { return try body(connection) } catch { throw Self.historyError(error, path: path) }
        } catch {
            throw Self.historyError(error, path: path)
        }
    }

    /// Whether libsqlite3, opened on the first history file, is installed (`doctor`).
    public static var isLibraryAvailable: Bool { libraryLoadingError == nil }

    /// Why libsqlite3 cannot be bound, or `nil`.
    public static var libraryLoadingError: LoadingError? { SQLiteLibrary.functions.loadingError }

    static func historyError(_ error: any Error, path: String) -> HistoryError {
        switch error {
        case let error as HistoryError: return error
        case let error as SQLiteError: return historyError(error, path: path)
        case let error as StorageError: return historyError(error, path: path)
        default: return .storage(path: path, reason: "\(error)")
        }
    }

    static func historyError(_ error: SQLiteError, path: String) -> HistoryError {
        if error.code == SQLiteError.libraryMissing.code, case .failure(let loading) = SQLiteLibrary.functions
        {
            return .libraryMissing(loading)
        }
        if error.isFull { return .full(path: path) }
        if error.isBusy { return .busy(path: path) }
        if error.isReadOnly {
            return .storage(path: path, reason: "permission denied (or a read-only file system)")
        }
        return .storage(path: path, reason: error.message)
    }

    static func historyError(_ error: StorageError, path: String) -> HistoryError {
        if case .noSpace = error { return .full(path: path) }
        return .storage(path: path, reason: error.description)
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// The end of a window in whole seconds: rounded up, so that a reading stored (to the second) just
    /// before the window's end is inside it.
    static func secondsRoundedUp(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.up)) }
}

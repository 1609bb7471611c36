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
        clock: @escaping @Sendable () -> Date, warnings: [String]
    ) {
        self.path = path
        self.connection = connection
        self.identity = identity
        self.clock = clock
        self.warnings = warnings
    }

    /// Opens an existing history, or returns `nil` when there is none yet (readers never create one).
    public static func openIfPresent(path: String) throws(HistoryError) -> HistoryStore? {
        guard FileIdentity(path) != nil else { return nil }
        var warnings: [String] = []
        let clock: @Sendable () -> Date = { Date() }
        let (connection, identity) = try openConnection(
            path, create: false, clock: clock, warnings: &warnings)
        return HistoryStore(
            path: path, connection: connection, identity: identity, clock: clock, warnings: warnings)
    }

    // MARK: - Writing

    /// Records one collection attempt and its readings; returns how many readings were new. A reading
    /// already stored is not stored twice: one with the same source time (the page's own "last
    /// updated"), or with the same fetch time and the same values. One fetched at a second already
    /// stored but saying something else (the clock was set back) is new.
    @discardableResult
    public func record(_ attempt: HistoryAttempt, readings: [HistoryReading]) throws(HistoryError) -> Int {
        try perform { connection throws(SQLiteError) in
            try connection.writeTransaction { () throws(SQLiteError) in
                try connection.prepare("INSERT INTO attempts (at, status, error) VALUES (?, ?, ?)").run([
                    .integer(Self.seconds(attempt.at)), .text(attempt.status.rawValue),
                    attempt.error.map { .text($0) } ?? .null,
                ])
                let attemptID = try connection.integer("SELECT last_insert_rowid()") ?? 0
                return try Self.insert(readings, attempt: attemptID, into: connection)
            }
        }
    }

    /// Records many attempts with their readings in one transaction (seeding a history, benchmarks);
    /// returns how many readings were new.
    @discardableResult
    public func recordAll(_ samples: [(attempt: HistoryAttempt, readings: [HistoryReading])])
        throws(HistoryError)
        -> Int
    {
        try perform { connection throws(SQLiteError) in
            try connection.writeTransaction { () throws(SQLiteError) in
                let insertAttempt = try connection.prepare(
                    "INSERT INTO attempts (at, status, error) VALUES (?, ?, ?)")
                var added = 0
                for sample in samples {
                    try insertAttempt.run([
                        .integer(Self.seconds(sample.attempt.at)), .text(sample.attempt.status.rawValue),
                        sample.attempt.error.map { .text($0) } ?? .null,
                    ])
                    let attemptID = try connection.integer("SELECT last_insert_rowid()") ?? 0
                    added += try Self.insert(sample.readings, attempt: attemptID, into: connection)
                }
                return added
            }
        }
    }

    /// Adds readings from elsewhere (`history import`), all or none; returns how many were new.
    public func importReadings(_ readings: [HistoryReading]) throws(HistoryError) -> Int {
        try perform { connection throws(SQLiteError) in
            try connection.writeTransaction { () throws(SQLiteError) in
                try Self.insert(readings, attempt: nil, into: connection)
            }
        }
    }

    private static func insert(
        _ readings: [HistoryReading], attempt: Int64?, into connection: SQLiteConnection
    )
        throws(SQLiteError) -> Int
    {
        let statement = try connection.prepare(
            """
            INSERT OR IGNORE INTO readings
                (attempt, facility, facility_id, fetched_at, source_time, occupancy, capacity, status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var added = 0
        for reading in readings {
            try statement.run([
                attempt.map { .integer($0) } ?? .null, .text(reading.facility),
                reading.facilityID.map { .text($0) } ?? .null, .integer(seconds(reading.fetchedAt)),
                reading.sourceTime.map { .integer(seconds($0)) } ?? .null, .integer(Int64(reading.occupancy)),
                .integer(Int64(reading.capacity)), .text(reading.status.rawValue),
            ])
            added += connection.changes
        }
        return added
    }

    // MARK: - Reading

    /// Readings fetched in `[from, to)`, of one facility or all, oldest first.
    public func readings(facility: String? = nil, from: Date, to: Date) throws(HistoryError)
        -> [HistoryReading]
    {
        // Collected inside the operation: when a damaged file is replaced part-way, the rows read from
        // it are dropped with it.
        try perform { connection throws(SQLiteError) in
            var rows: [HistoryReading] = []
            try Self.scanReadings(connection, facility: facility, from: from, to: to) { rows.append($0) }
            return rows
        }
    }

    /// Calls `body` with each reading fetched in `[from, to)`, of one facility or all, oldest first, one
    /// row at a time: memory stays flat however long the history (`history export`).
    public func forEachReading(
        facility: String? = nil, from: Date, to: Date, _ body: (HistoryReading) -> Void
    ) throws(HistoryError) {
        try perform { connection throws(SQLiteError) in
            try Self.scanReadings(connection, facility: facility, from: from, to: to, body)
        }
    }

    /// The rows of one read, handed to `body` as they come.
    private static func scanReadings(
        _ connection: SQLiteConnection, facility: String?, from: Date, to: Date,
        _ body: (HistoryReading) -> Void
    ) throws(SQLiteError) {
        // Two statements, not `? IS NULL OR facility = ?`: that form keeps SQLite from using the
        // (facility, fetched_at) index, and a year of history is then scanned in full (measured:
        // trends took 100 ms instead of a few).
        let columns =
            "SELECT facility, facility_id, fetched_at, source_time, occupancy, capacity, status FROM readings"
        let range = "fetched_at >= ? AND fetched_at < ?"
        let bounds: [SQLiteValue] = [.integer(Self.seconds(from)), .integer(Self.secondsRoundedUp(to))]
        let statement: SQLiteStatement
        if let facility {
            statement = try connection.prepare(
                "\(columns) WHERE facility = ? AND \(range) ORDER BY fetched_at")
            try statement.bind([.text(facility)] + bounds)
        } else {
            statement = try connection.prepare("\(columns) WHERE \(range) ORDER BY fetched_at, facility")
            try statement.bind(bounds)
        }
        while try statement.step() {
            body(reading(statement))
        }
    }

    /// Readings of one facility fetched in each of `intervals` (`[from, to)`), interval by interval, oldest
    /// first in each; one statement for them all. The status bar asks for nine half hours per facility,
    /// and preparing a statement costs more than reading a half hour (callgrind: 107,000 instructions).
    public func readings(facility: String, in intervals: [(from: Date, to: Date)]) throws(HistoryError)
        -> [HistoryReading]
    {
        try perform { connection throws(SQLiteError) in
            let statement = try connection.prepare(
                """
                SELECT facility, facility_id, fetched_at, source_time, occupancy, capacity, status FROM readings
                WHERE facility = ? AND fetched_at >= ? AND fetched_at < ? ORDER BY fetched_at
                """)
            var rows: [HistoryReading] = []
            for interval in intervals {
                try statement.bind([
                    .text(facility), .integer(Self.seconds(interval.from)),
                    .integer(Self.secondsRoundedUp(interval.to)),
                ])
                while try statement.step() { rows.append(Self.reading(statement)) }
            }
            statement.reset()
            return rows
        }
    }

    /// The reading in a row of `facility, facility_id, fetched_at, source_time, occupancy, capacity, status`.
    private static func reading(_ statement: SQLiteStatement) -> HistoryReading {
        HistoryReading(
            facility: statement.text(0),
            facilityID: statement.isNull(1) ? nil : statement.text(1),
            fetchedAt: Date(timeIntervalSince1970: Double(statement.integer(2))),
            sourceTime: statement.isNull(3) ? nil : Date(timeIntervalSince1970: Double(statement.integer(3))),
            occupancy: Int(statement.integer(4)), capacity: Int(statement.integer(5)),
            status: HistoryReading.Status(rawValue: statement.text(6)) ?? .ok)
    }

    /// Collection attempts made in `[from, to)`, oldest first.
    public func attempts(from: Date, to: Date) throws(HistoryError) -> [HistoryAttempt] {
        try perform { connection throws(SQLiteError) in
            let statement = try connection.prepare(
                "SELECT at, status, error FROM attempts WHERE at >= ? AND at < ? ORDER BY at")
            try statement.bind([.integer(Self.seconds(from)), .integer(Self.secondsRoundedUp(to))])
            var rows: [HistoryAttempt] = []
            while try statement.step() {
                rows.append(
                    HistoryAttempt(
                        at: Date(timeIntervalSince1970: Double(statement.integer(0))),
                        status: HistoryAttempt.Status(rawValue: statement.text(1)) ?? .failed,
                        error: statement.isNull(2) ? nil : statement.text(2)))
            }
            return rows
        }
    }

    /// The attempt tried (not skipped) most recently, if any: the last recorded, whatever its time says,
    /// so that one stamped ahead by a clock that was wrong does not stand for the latest.
    public func lastTriedAttempt() throws(HistoryError) -> HistoryAttempt? {
        try perform { connection throws(SQLiteError) in
            let statement = try connection.prepare(
                "SELECT at, status, error FROM attempts WHERE status != 'skipped' ORDER BY id DESC LIMIT 1")
            guard try statement.step() else { return nil }
            return HistoryAttempt(
                at: Date(timeIntervalSince1970: Double(statement.integer(0))),
                status: HistoryAttempt.Status(rawValue: statement.text(1)) ?? .failed,
                error: statement.isNull(2) ? nil : statement.text(2))
        }
    }

    /// How many readings a facility has, and when the first and last were fetched.
    public func extent(facility: String) throws(HistoryError) -> (count: Int, first: Date?, last: Date?) {
        try perform { connection throws(SQLiteError) in
            let statement = try connection.prepare(
                "SELECT count(*), min(fetched_at), max(fetched_at) FROM readings WHERE facility = ?")
            try statement.bind([.text(facility)])
            guard try statement.step(), statement.integer(0) > 0 else { return (0, nil, nil) }
            return (
                Int(statement.integer(0)), Date(timeIntervalSince1970: Double(statement.integer(1))),
                Date(timeIntervalSince1970: Double(statement.integer(2)))
            )
        }
    }

    // MARK: - Opening, versions, damage

    /// The schema, one step per version; a database is brought up to the last in place.
    static let migrations: [String] = [
        """
        CREATE TABLE attempts (
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('success', 'partial', 'failed', 'skipped')),
            error TEXT
        );
        CREATE INDEX attempts_at ON attempts (at);
        CREATE TABLE readings (
            id INTEGER PRIMARY KEY,
            attempt INTEGER REFERENCES attempts (id),
            facility TEXT NOT NULL,
            facility_id TEXT,
            fetched_at INTEGER NOT NULL,
            source_time INTEGER,
            occupancy INTEGER NOT NULL CHECK (occupancy >= 0),
            capacity INTEGER NOT NULL CHECK (capacity > 0),
            status TEXT NOT NULL CHECK (status IN ('ok', 'closed'))
        );
        CREATE UNIQUE INDEX readings_fetched ON readings (facility, fetched_at);
        CREATE UNIQUE INDEX readings_source ON readings (facility, source_time) WHERE source_time IS NOT NULL;
        """,
        // A reading is the one already stored with the same source time (the page's own), or with the
        // same fetch time and the same values; not by fetch time alone: a clock set back (NTP after a
        // clock that was ahead) fetches again at seconds already stored, and what it reads then is new.
        // The fetch time stays second in the index, for the range queries.
        """
        DROP INDEX readings_fetched;
        CREATE UNIQUE INDEX readings_fetched ON readings (facility, fetched_at, occupancy, capacity, status);
        """,
    ]

    /// The schema version this gymcard writes.
    public static var schemaVersion: Int { migrations.count }

    /// Opens the history; a file found damaged is moved aside (unless another gymcard already did) and
    /// a new history started. Returns the connection and the file it is on.
    private static func openConnection(
        _ path: String, create: Bool, clock: () -> Date, warnings: inout [String]
    ) throws(HistoryError) -> (SQLiteConnection, FileIdentity?) {
        let found = FileIdentity(path)
        do {
            return (try connect(path, create: create), found ?? FileIdentity(path))
        } catch let error as SQLiteError where error.isCorrupt {
            return try replaceDamaged(path, found: found, clock: clock, warnings: &warnings)
        } catch {
            throw historyError(error, path: path)
        }
    }

    /// Moves the damaged file `found` aside and starts a new history, holding a lock beside the history
    /// so that two gymcard processes that found the same damage move it once: the second finds a
    /// different file at `path` (the first one's new history) and opens it instead of moving it.
    static func replaceDamaged(
        _ path: String, found: FileIdentity?, clock: () -> Date, warnings: inout [String]
    ) throws(HistoryError) -> (SQLiteConnection, FileIdentity?) {
        let lockPath = AtomicFile.directory(of: path) + "/." + fileName(of: path) + ".lock"
        do {
            return try FileLock.withExclusiveLock(on: lockPath) { () throws(HistoryError) in
                if found == nil || FileIdentity(path) == found {
                    warnings.append(try moveAside(path, now: clock()))
                }
                do { return (try connect(path, create: true), FileIdentity(path)) } catch {
                    throw historyError(error, path: path)
                }
            }
        } catch {
            switch error {
            case .storage(let failure): throw historyError(failure, path: path)
            case .body(let failure): throw failure
            }
        }
    }

    /// Opens, sets WAL and the busy timeout, and migrates. Throws `SQLiteError` or `HistoryError`.
    private static func connect(_ path: String, create: Bool) throws -> SQLiteConnection {
        if create { try prepareFile(path) }
        let connection = try SQLiteConnection(path: path, create: create)
        // The first statement reads the file: a damaged one or a non-database fails here.
        // The statement must be finished before the mode can change: text() finishes it.
        if try connection.text("PRAGMA journal_mode")?.lowercased() != "wal" {
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        // NORMAL in WAL mode: a commit is not fsynced (a power cut may lose the last samples, never the
        // database); checkpoints are. The WAL is truncated to 4 MiB after each checkpoint.
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304")
        try migrate(connection, path: path)
        return connection
    }

    private static func migrate(_ connection: SQLiteConnection, path: String) throws {
        let version = Int(try connection.integer("PRAGMA user_version") ?? 0)
        guard version <= migrations.count else {
            throw HistoryError.newerVersion(path: path, version: version)
        }
        guard version < migrations.count else { return }
        try connection.writeTransaction { () throws(SQLiteError) in
            // Another process may have migrated while this one waited for the lock.
            let current = Int(try connection.integer("PRAGMA user_version") ?? 0)
            for step in current..<migrations.count {
                try connection.execute(migrations[step])
                try connection.execute("PRAGMA user_version = \(step + 1)")
            }
        }
    }

    /// The directory 0700 and the file 0600 before SQLite creates it (its WAL files copy the mode).
    private static func prepareFile(_ path: String) throws(HistoryError) {
        do { try Directory.create(AtomicFile.directory(of: path), permissions: 0o700) } catch {
            throw .storage(path: path, reason: error.description)
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw historyError(StorageError(errno: errno, path: path, operation: "create"), path: path)
        }
        close(descriptor)
    }

    /// Moves a damaged database (and its WAL files) to `<path>.corrupt-<UTC time>`, or, when a file
    /// already has that name (two moved aside in one second), `…-2`, `-3`, …: nothing moved aside is ever
    /// replaced. Called holding the lock, so no other gymcard picks the same name meanwhile. Returns the
    /// warning.
    private static func moveAside(_ path: String, now: Date) throws(HistoryError) -> String {
        let stem = path + ".corrupt-" + compactUTC(now)
        var aside = stem
        var number = 1
        while [aside, aside + "-wal", aside + "-shm"].contains(where: { FileIdentity($0) != nil }) {
            number += 1
            aside = stem + "-\(number)"
        }
        guard rename(path, aside) == 0 else {
            throw .storage(
                path: path, reason: "it is damaged and could not be moved aside; move it away yourself")
        }
        for suffix in ["-wal", "-shm"] { rename(path + suffix, aside + suffix) }
        return "the history \(path) was damaged; it was moved to \(aside) and a new history was started"
    }

    /// Runs a database operation; a file found damaged on the way is moved aside once, with a warning,
    /// and the operation run again on a new history (or on the new history another gymcard started
    /// after finding the same damage).
    private func perform<Result>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result)
        throws(HistoryError) -> Result
    {
        do { return try body(connection) } catch  where error.isCorrupt {
            (connection, identity) = try Self.replaceDamaged(
                path, found: identity, clock: clock, warnings: &warnings)
            do { return try body(connection) } catch { throw Self.historyError(error, path: path) }
        } catch {
            throw Self.historyError(error, path: path)
        }
    }

    private static func historyError(_ error: any Error, path: String) -> HistoryError {
        switch error {
        case let error as HistoryError: return error
        case let error as SQLiteError: return historyError(error, path: path)
        case let error as StorageError: return historyError(error, path: path)
        default: return .storage(path: path, reason: "\(error)")
        }
    }

    private static func historyError(_ error: SQLiteError, path: String) -> HistoryError {
        if error.isFull { return .full(path: path) }
        if error.isBusy { return .busy(path: path) }
        if error.isReadOnly {
            return .storage(path: path, reason: "permission denied (or a read-only file system)")
        }
        return .storage(path: path, reason: error.message)
    }

    private static func historyError(_ error: StorageError, path: String) -> HistoryError {
        if case .noSpace = error { return .full(path: path) }
        return .storage(path: path, reason: error.description)
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// The end of a window in whole seconds: rounded up, so that a reading stored (to the second) just
    /// before the window's end is inside it.
    static func secondsRoundedUp(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.up)) }

    /// The last component of a path.
    private static func fileName(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// `20261122T170000Z`.
    private static func compactUTC(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}

/// Which file a path names (device and inode): the same name may later name another file.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now, or `nil` when there is none.
    init?(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

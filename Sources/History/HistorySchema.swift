import FoundationEssentials
import Glibc
import Storage

/// The history's schema and how a file is opened: created 0700/0600, WAL mode, migrated in place.
extension HistoryStore {
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

    /// Opens, sets WAL and the busy timeout, and migrates; `readOnly`, only opens (a newer format is still
    /// reported). Throws `SQLiteError` or `HistoryError`.
    static func connect(_ path: String, create: Bool, readOnly: Bool = false) throws -> SQLiteConnection {
        guard create, access(path, F_OK) != 0 else {
            return try connectAndMigrate(path, create: create, readOnly)
        }
        // A file this call creates is removed again when it does not become a history (libsqlite3 missing,
        // a full disk while migrating): an empty file left behind would read as a history without tables.
        if case .failure = SQLiteLibrary.functions { throw SQLiteError.libraryMissing }
        try prepareFile(path)
        do { return try connectAndMigrate(path, create: create, readOnly) } catch {
            for file in [path, path + "-wal", path + "-shm"] { unlink(file) }
            throw error
        }
    }

    private static func connectAndMigrate(_ path: String, create: Bool, _ readOnly: Bool) throws
        -> SQLiteConnection
    {
        let connection = try SQLiteConnection(path: path, create: create)
        // The first statement reads the file: a damaged one or a non-database fails here.
        // The statement must be finished before the mode can change: text() finishes it.
        let mode = try connection.text("PRAGMA journal_mode")?.lowercased()
        guard !readOnly else {
            _ = try knownVersion(connection, path: path)
            return connection
        }
        if mode != "wal" {
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        // NORMAL in WAL mode: a commit is not fsynced (a power cut may lose the last samples, never the
        // database); checkpoints are. The WAL is truncated to 4 MiB after each checkpoint.
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304")
        try migrate(connection, path: path)
        return connection
    }

    /// The file's schema version; a newer one than this gymcard knows is ``HistoryError/newerVersion(path:version:)``.
    static func knownVersion(_ connection: SQLiteConnection, path: String) throws -> Int {
        let version = Int(try connection.integer("PRAGMA user_version") ?? 0)
        guard version <= migrations.count else {
            throw HistoryError.newerVersion(path: path, version: version)
        }
        return version
    }

    static func migrate(_ connection: SQLiteConnection, path: String) throws {
        guard try knownVersion(connection, path: path) < migrations.count else { return }
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
    static func prepareFile(_ path: String) throws(HistoryError) {
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
}

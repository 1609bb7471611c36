import FoundationEssentials

/// Writing the history: one collection attempt, many at once, or readings imported from elsewhere.
extension HistoryStore {
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
}

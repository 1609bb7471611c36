import FoundationEssentials

/// Reading the history: readings in a window (all at once or one row at a time), several intervals of one
/// facility, attempts, and a facility's extent.
extension HistoryStore {
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
}

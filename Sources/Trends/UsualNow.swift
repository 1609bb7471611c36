import CivilTime
import FoundationEssentials
import History
import Storage

/// Each facility's usual percent for the half hour `now` falls in: the weekly heatmap's cell, the number
/// `trends` shows for that half hour, with the span of time over which it stays the same while the
/// history does not change.
///
/// Status bars ask for this every few seconds and the history changes every few minutes, so the answer
/// is kept in a small file (``UsualNowCache``) and worked out again only when the history's files change
/// (``HistoryFileVersion``) or time leaves the span. Over the span the set of readings the cell is made
/// of is the same: the half hour is the same, no stored reading is fetched between the moment it was
/// worked out and now (one stamped ahead by a clock set back, or imported), and none has left the
/// window (it slides with now).
public struct UsualNow: Sendable, Equatable {
    /// Facility key → its usual percent; a facility with too little history for this half hour is
    /// absent.
    public var percents: [String: Double]
    /// The facilities it was worked out for.
    public var facilities: [String]
    /// The local day and the slot of the cell.
    public var day: Int
    /// The cell's 30-minute slot of the day.
    public var slot: Int
    /// The span over which the answer holds: `[from, until)`.
    public var from: Date
    /// See ``from``.
    public var until: Date

    /// Creates an answer.
    public init(
        percents: [String: Double], facilities: [String], day: Int, slot: Int, from: Date, until: Date
    ) {
        self.percents = percents
        self.facilities = facilities
        self.day = day
        self.slot = slot
        self.from = from
        self.until = until
    }

    /// Works the answer out from the history: the few intervals that decide the cell
    /// (``WeeklyHeatmap/intervalsForCell(at:zone:weeks:)``), and the readings just after now.
    public static func compute(
        from store: HistoryStore, facilities: [String], at now: Date, zone: LocalTimeZone, weeks: Int
    ) throws(HistoryError) -> UsualNow {
        let position = WeeklyHeatmap.position(of: now, zone: zone)
        let intervals = WeeklyHeatmap.intervalsForCell(at: now, zone: zone, weeks: weeks)
        let slotEnd = zone.date(of: position.day, secondOfDay: (position.slot + 1) * 1800)
        let windowSeconds = Double(weeks) * 7 * 86_400
        // A reading fetched at a whole second s is inside a window ending at now while s < now rounded up.
        let firstOutside = now.timeIntervalSince1970.rounded(.up)
        var until = slotEnd
        var percents: [String: Double] = [:]
        for facility in facilities {
            let readings = try store.readings(facility: facility, in: intervals)
            let cell = WeeklyHeatmap(facility: facility, readings: readings, zone: zone).cell(
                at: now, zone: zone)
            percents[facility] = cell.meanPercent
            // The window starts `windowSeconds` before now, rounded down to the second: the oldest reading
            // (at a whole second) leaves it a second later than that.
            if let oldest = readings.lazy.map(\.fetchedAt).min() {
                until = min(until, oldest.addingTimeInterval(windowSeconds + 1))
            }
            // A reading stored for later in this half hour enters when now reaches it.
            if slotEnd > now,
                let next = try store.readings(facility: facility, in: [(now, slotEnd)]).first(where: {
                    $0.fetchedAt.timeIntervalSince1970 >= firstOutside
                })
            {
                until = min(until, next.fetchedAt)
            }
        }
        return UsualNow(
            percents: percents, facilities: facilities, day: position.day.number, slot: position.slot,
            from: now,
            until: until)
    }

    /// The answer for `facilities` at `now`, or `nil` when it was not worked out for them, for this
    /// half hour, or for a moment in this span.
    public func percents(for facilities: [String], at now: Date, zone: LocalTimeZone) -> [String: Double]? {
        guard from <= now, now < until, Set(facilities).isSubset(of: self.facilities) else { return nil }
        let position = WeeklyHeatmap.position(of: now, zone: zone)
        guard position.day.number == day, position.slot == slot else { return nil }
        return percents.filter { facilities.contains($0.key) }
    }
}

/// ``UsualNow`` kept in a small text file between status-bar calls, with what it was worked out from:
/// the history (its path and ``HistoryFileVersion``), the facilities' time zone and the window.
public struct UsualNowCache: Sendable, Equatable {
    /// What the answer depends on besides the moment.
    public struct Key: Sendable, Equatable {
        /// The history file.
        public var history: String
        /// Its ``HistoryFileVersion/text``.
        public var version: String
        /// The facilities' time zone (`America/New_York`).
        public var zone: String
        /// The window, in weeks.
        public var weeks: Int

        /// Creates a key.
        public init(history: String, version: String, zone: String, weeks: Int) {
            self.history = history
            self.version = version
            self.zone = zone
            self.weeks = weeks
        }
    }

    /// What it was worked out from.
    public var key: Key
    /// The answer.
    public var usual: UsualNow

    /// Creates a cache entry.
    public init(key: Key, usual: UsualNow) {
        self.key = key
        self.usual = usual
    }

    static let header = "gymcard usual-now 1"

    /// The file's text: a header line, one `name value` line each, and `end`.
    public var text: String {
        var lines = [
            Self.header, "history " + key.history, "version " + key.version, "zone " + key.zone,
            "weeks \(key.weeks)", "cell \(usual.day) \(usual.slot)",
            "span \(usual.from.timeIntervalSince1970) \(usual.until.timeIntervalSince1970)",
        ]
        // Doubles in Swift's shortest form, which reads back to the same value.
        for facility in usual.facilities {
            lines.append("usual " + facility + " " + (usual.percents[facility].map { "\($0)" } ?? "none"))
        }
        return (lines + ["end"]).joined(separator: "\n") + "\n"
    }

    /// Reads the file's text; `nil` for anything else (another version of gymcard, a damaged file).
    public init?(text: String) {
        var fields: [String: String] = [:]
        var facilities: [String] = []
        var percents: [String: Double] = [:]
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.first == Self.header, lines.last == "end" else { return nil }
        for line in lines.dropFirst().dropLast() {
            guard let space = line.firstIndex(of: " ") else { return nil }
            let name = String(line[..<space])
            let value = String(line[line.index(after: space)...])
            guard name == "usual" else {
                fields[name] = value
                continue
            }
            let parts = value.split(separator: " ").map(String.init)
            guard parts.count == 2 else { return nil }
            facilities.append(parts[0])
            if parts[1] != "none" {
                guard let percent = Double(parts[1]) else { return nil }
                percents[parts[0]] = percent
            }
        }
        let cell = (fields["cell"] ?? "").split(separator: " ").compactMap { Int($0) }
        let span = (fields["span"] ?? "").split(separator: " ").compactMap { Double($0) }
        guard let history = fields["history"], let version = fields["version"], let zone = fields["zone"],
            let weeks = fields["weeks"].flatMap({ Int($0) }), cell.count == 2, span.count == 2
        else { return nil }
        key = Key(history: history, version: version, zone: zone, weeks: weeks)
        usual = UsualNow(
            percents: percents, facilities: facilities, day: cell[0], slot: cell[1],
            from: Date(timeIntervalSince1970: span[0]), until: Date(timeIntervalSince1970: span[1]))
    }

    /// The entry stored at `path`, or `nil` when there is none or it cannot be read.
    public static func load(_ path: String) -> UsualNowCache? {
        guard let bytes = try? FileContents.read(path, limitBytes: 1 << 16) else { return nil }
        return UsualNowCache(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Stores the entry at `path` (its folder created 0700), replacing what was there at once.
    public func save(_ path: String) throws(StorageError) {
        try Directory.create(AtomicFile.directory(of: path), permissions: 0o700)
        try AtomicFile.write(Array(text.utf8), to: path, permissions: 0o600)
    }
}

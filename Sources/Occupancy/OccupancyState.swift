import FoundationEssentials
import Storage

/// The last good reading of each facility, kept in `$XDG_STATE_HOME/gymcard/occupancy.json` so that a
/// failed fetch can show the previous value (marked stale) and `--cached` can answer without the network.
public struct OccupancyState: Sendable, Equatable {
    /// One facility's last good reading and when it was observed.
    public struct Entry: Sendable, Equatable {
        /// The facility ID it was read for: an entry for an ID no longer configured is ignored.
        public var id: String
        /// The reading.
        public var reading: OccupancyReading
        /// When the fetch succeeded.
        public var observedAt: Date
        /// The source's own time of the reading (a GoBoard zone's `LastUpdatedDateAndTime`), when it says.
        public var sourceTime: Date?
        /// The source flagged the facility closed when it was read (GoBoard `IsClosed`, Waitz `isOpen`).
        public var closedAtSource = false

        /// Creates an entry.
        public init(
            id: String, reading: OccupancyReading, observedAt: Date, sourceTime: Date? = nil,
            closedAtSource: Bool = false
        ) {
            self.id = id
            self.reading = reading
            self.observedAt = observedAt
            self.sourceTime = sourceTime
            self.closedAtSource = closedAtSource
        }
    }

    /// Entries by facility key.
    public var entries: [String: Entry]

    /// An empty state.
    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// The schema version written to the file.
    static let version = 1

    private struct File: Codable {
        var version: Int
        var facilities: [String: FileEntry]
    }

    private struct FileEntry: Codable {
        var id: String
        var occupancy: Int
        var remaining: Int
        var capacity: Int
        var observedAt: Date
        /// `percent` for a percent-only reading; absent for people (files from before campuses).
        var measure: OccupancyMeasure?
        /// The source's own time; absent when it gives none (and in files from before vendors).
        var sourceTime: Date?
        /// `true` when the source flagged it closed; absent otherwise (and in files from before vendors).
        var closedAtSource: Bool?
    }

    /// Reads the state file's bytes.
    ///
    /// - Throws: ``OccupancyStateProblem`` when they are not a state file of this version (the caller warns
    ///   and starts empty).
    public static func decode(_ bytes: [UInt8]) throws(OccupancyStateProblem) -> OccupancyState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let file: File
        do { file = try decoder.decode(File.self, from: Data(bytes)) } catch {
            throw .corrupt
        }
        guard file.version == version else { throw .unknownVersion(file.version) }
        var entries: [String: Entry] = [:]
        for (key, entry) in file.facilities where entry.occupancy >= 0 && entry.capacity > 0 {
            let reading =
                entry.measure == .percent
                ? OccupancyReading.percentOnly(entry.occupancy)
                : OccupancyReading(
                    occupancy: entry.occupancy, remaining: entry.remaining, capacity: entry.capacity)
            entries[key] = Entry(
                id: entry.id, reading: reading, observedAt: entry.observedAt, sourceTime: entry.sourceTime,
                closedAtSource: entry.closedAtSource ?? false)
        }
        return OccupancyState(entries: entries)
    }

    /// The state file's bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let file = File(
            version: Self.version,
            facilities: entries.mapValues {
                FileEntry(
                    id: $0.id, occupancy: $0.reading.occupancy, remaining: $0.reading.remaining,
                    capacity: $0.reading.capacity, observedAt: $0.observedAt,
                    measure: $0.reading.countsPeople ? nil : .percent, sourceTime: $0.sourceTime,
                    closedAtSource: $0.closedAtSource ? true : nil)
            })
        // Encoding plain integers, strings and dates cannot fail.
        return Array((try? encoder.encode(file)) ?? Data()) + [0x0A]
    }

    /// How far ahead of a reading just taken a stored entry may be stamped and still count as taken at
    /// the same time (two processes saving at once, a clock stepped by a few seconds); further ahead, its
    /// clock was wrong (ahead at boot before NTP) or this one is behind.
    public static let clockSkewToleranceSeconds: Double = 60

    /// Merges readings just taken (`other`, stamped by this process's clock) into the stored ones: of
    /// each facility's two entries the newer is kept, unless the stored one is stamped more than
    /// ``clockSkewToleranceSeconds`` ahead of the new one. That one came from a clock that was ahead (or
    /// this clock went back), and the reading just taken replaces it: a wrong stamp must never keep later
    /// readings from being saved until the clock catches up with it.
    public mutating func merge(_ other: OccupancyState) {
        for (key, entry) in other.entries {
            if let existing = entries[key], existing.observedAt > entry.observedAt,
                existing.observedAt.timeIntervalSince(entry.observedAt) <= Self.clockSkewToleranceSeconds
            {
                continue
            }
            entries[key] = entry
        }
    }
}

/// Why a state file was not used.
public enum OccupancyStateProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON of the expected shape.
    case corrupt
    /// Written by another version of gymcard.
    case unknownVersion(Int)

    /// Says what was wrong.
    public var description: String {
        switch self {
        case .corrupt: return "it is not a gymcard occupancy state file"
        case .unknownVersion(let version):
            return "it has schema version \(version), not \(OccupancyState.version)"
        }
    }
}

/// The state file on disk: read, and updated under a lock so that a status bar and a watch never lose
/// each other's readings. Written atomically (Storage's AtomicFile).
public struct OccupancyStateFile: Sendable {
    /// `$XDG_STATE_HOME/gymcard/occupancy.json`, or `…/gymcard/campuses/<name>/occupancy.json` for a
    /// campus profile.
    public var path: String

    /// The state file of `campus` (`nil`: the built-in Virginia Tech) under `directories`.
    public init(directories: XDGDirectories, campus: String? = nil) {
        path = Self.folder(directories, campus: campus) + "/occupancy.json"
    }

    /// Where a campus's state lives: `$XDG_STATE_HOME/gymcard` for Virginia Tech (as before campuses
    /// existed), `$XDG_STATE_HOME/gymcard/campuses/<name>` for a profile, so that no two campuses share a
    /// facility's last value or history.
    public static func folder(_ directories: XDGDirectories, campus: String?) -> String {
        directories.stateHome + "/gymcard" + (campus.map { "/campuses/" + $0 } ?? "")
    }

    /// What a load found: the state, and a warning when the file was there but unusable.
    public struct Loaded: Sendable {
        /// The state (empty when the file was missing or unusable).
        public var state: OccupancyState
        /// Why the file was ignored, worded for a person.
        public var warning: String?
    }

    /// Reads the state; a missing file is an empty state, a corrupt one an empty state with a warning.
    public func load() -> Loaded {
        let bytes: [UInt8]?
        do { bytes = try FileContents.read(path, limitBytes: 1 << 20) } catch {
            return Loaded(state: OccupancyState(), warning: "ignoring the occupancy state: \(error)")
        }
        guard let bytes else { return Loaded(state: OccupancyState(), warning: nil) }
        do { return Loaded(state: try OccupancyState.decode(bytes), warning: nil) } catch {
            return Loaded(
                state: OccupancyState(),
                warning: "ignoring \(path): \(error); it will be rewritten with the next readings")
        }
    }

    /// Merges `fresh` into the file under its lock and writes it atomically.
    public func save(_ fresh: OccupancyState) throws(StorageError) {
        guard !fresh.entries.isEmpty else { return }
        let directory = AtomicFile.directory(of: path)
        try Directory.create(directory, permissions: 0o700)
        do {
            try FileLock.withExclusiveLock(on: directory + "/.occupancy.lock") { () throws(StorageError) in
                var state = load().state
                state.merge(fresh)
                try AtomicFile.write(state.encoded(), to: path, permissions: 0o600)
            }
        } catch {
            switch error {
            case .storage(let failure), .body(let failure): throw failure
            }
        }
    }
}

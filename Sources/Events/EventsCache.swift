import FoundationEssentials
import Storage

/// What one successful fetch brought: the events, where from, and when.
public struct EventsSnapshot: Sendable, Equatable {
    /// The feed's address.
    public var source: String
    /// When it was fetched.
    public var fetchedAt: Date
    /// Its events that had not ended by then.
    public var events: [Event]

    /// Creates a snapshot.
    public init(source: String, fetchedAt: Date, events: [Event]) {
        self.source = source
        self.fetchedAt = fetchedAt
        self.events = events
    }

    /// How long a fetch answers before the feed is asked again: the Engage feed's `ttl` of 300
    /// (seconds, as Engage means it; RSS 2.0 would read minutes).
    public static let freshSeconds: Double = 300

    /// Whether it still answers for `source` at `now` without a fetch.
    public func isFresh(for source: String, now: Date) -> Bool {
        let age = now.timeIntervalSince(fetchedAt)
        // A fetch time in the future (a clock set back) is not trusted.
        return self.source == source && age >= -60 && age < Self.freshSeconds
    }
}

/// `$XDG_CACHE_HOME/gymcard/events.json`: the last good fetch, versioned, replaced atomically and only
/// by a fetch that parsed.
public struct EventsCache: Sendable {
    /// The cache file's path.
    public var path: String

    /// The schema this build reads and writes.
    static let version = 1

    /// The cache under `directories`.
    public init(directories: XDGDirectories) {
        path = directories.cacheHome + "/gymcard/events.json"
    }

    private struct File: Codable {
        var version: Int
        var source: String
        var fetchedAt: Date
        var events: [Event]
    }

    private struct Header: Decodable {
        var version: Int
    }

    /// What a load found: the snapshot, and a warning when a file was there but unusable.
    public struct Loaded: Sendable {
        /// The cached fetch, when there is a usable one.
        public var snapshot: EventsSnapshot?
        /// Why the file was ignored, worded for a person.
        public var warning: String?
    }

    /// Reads the cache; a missing file is no snapshot, a corrupt or other-version one no snapshot with a
    /// warning.
    public func load() -> Loaded {
        let bytes: [UInt8]?
        do { bytes = try FileContents.read(path, limitBytes: 16 << 20) } catch {
            return Loaded(snapshot: nil, warning: "ignoring the events cache: \(error)")
        }
        guard let bytes else { return Loaded(snapshot: nil, warning: nil) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let header = try? decoder.decode(Header.self, from: Data(bytes)) else {
            return Loaded(snapshot: nil, warning: ignoring("it is not a gymcard events cache"))
        }
        guard header.version == Self.version else {
            return Loaded(
                snapshot: nil,
                warning: ignoring(
                    "it is version \(header.version) of the cache; this gymcard reads version \(Self.version)"
                ))
        }
        guard let file = try? decoder.decode(File.self, from: Data(bytes)) else {
            return Loaded(snapshot: nil, warning: ignoring("it is damaged"))
        }
        return Loaded(
            snapshot: EventsSnapshot(source: file.source, fetchedAt: file.fetchedAt, events: file.events),
            warning: nil)
    }

    private func ignoring(_ reason: String) -> String {
        "ignoring \(path): \(reason); it will be replaced by the next fetch"
    }

    /// Replaces the cache with `snapshot` in one step (readers see the old file or the new one).
    public func save(_ snapshot: EventsSnapshot) throws(StorageError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let file = File(
            version: Self.version, source: snapshot.source, fetchedAt: snapshot.fetchedAt,
            events: snapshot.events)
        // Strings, dates and arrays of them always encode.
        let bytes = Array((try? encoder.encode(file)) ?? Data()) + [0x0A]
        try Directory.create(AtomicFile.directory(of: path), permissions: 0o700)
        try AtomicFile.write(bytes, to: path, permissions: 0o600)
    }
}

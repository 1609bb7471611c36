import CivilTime
import FoundationEssentials
import Glibc
import Storage

/// `$XDG_CACHE_HOME/gymcard/hours/<YYYY-MM-DD>.json`: the hours service's answer for each day, as it
/// came, with where and when it was fetched. Versioned, replaced atomically, 0600; days more than two
/// weeks past are removed when a new day is written.
public struct HoursCache: Sendable {
    /// The folder.
    public var directory: String

    /// The schema this build reads and writes.
    static let version = 1
    /// Days kept behind today.
    static let keptDays = 14

    /// The cache under `directories`.
    public init(directories: XDGDirectories) {
        directory = directories.cacheHome + "/gymcard/hours"
    }

    /// One day's answer.
    public struct Entry: Sendable, Equatable, Codable {
        /// The service's base URL it came from (an answer for another source is not used).
        public var source: String
        /// When it was fetched.
        public var fetchedAt: Date
        /// The answer's body (the service's JSON).
        public var body: String

        /// Creates an entry.
        public init(source: String, fetchedAt: Date, body: String) {
            self.source = source
            self.fetchedAt = fetchedAt
            self.body = body
        }
    }

    private struct File: Codable {
        var version: Int
        var source: String
        var fetchedAt: Date
        var body: String
    }

    /// The file for `day`.
    public func path(for day: LocalDay) -> String {
        directory + "/" + RecSportsHoursResponse.isoDate(day) + ".json"
    }

    /// The cached answer for `day` from `source`, when there is a readable one.
    public func entry(for day: LocalDay, source: String) -> Entry? {
        guard let bytes = try? FileContents.read(path(for: day), limitBytes: 4 << 20) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let file = try? decoder.decode(File.self, from: Data(bytes)), file.version == Self.version,
            file.source == source
        else { return nil }
        return Entry(source: file.source, fetchedAt: file.fetchedAt, body: file.body)
    }

    /// Stores `entry` as the answer for `day`, and removes days long past (relative to `today`).
    public func save(_ entry: Entry, for day: LocalDay, today: LocalDay) throws(StorageError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let file = File(
            version: Self.version, source: entry.source, fetchedAt: entry.fetchedAt, body: entry.body)
        // Strings and a date always encode.
        let bytes = Array((try? encoder.encode(file)) ?? Data()) + [0x0A]
        try Directory.create(directory, permissions: 0o700)
        try AtomicFile.write(bytes, to: path(for: day), permissions: 0o600)
        removeDays(before: today.adding(days: -Self.keptDays))
    }

    /// Removes the files of days before `oldest` (only names this cache writes).
    private func removeDays(before oldest: LocalDay) {
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        var stale: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.count == 15, name.hasSuffix(".json"), let day = RecSportsHoursResponse.day(from: name),
                day < oldest
            else { continue }
            stale.append(name)
        }
        for name in stale { unlink(directory + "/" + name) }
    }
}

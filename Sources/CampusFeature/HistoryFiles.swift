import CivilTime
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import OpeningHours
import Storage

/// Where a campus's history is, opening it, and recording a poll in it.
public enum HistoryFiles {
    /// `$XDG_STATE_HOME/gymcard/history.sqlite3`, or `…/gymcard/campuses/<name>/history.sqlite3` for a
    /// campus profile: each campus keeps its own history.
    public static func path(_ directories: XDGDirectories, campus: String?) -> String {
        guard let campus else { return HistoryStore.path(directories) }
        return OccupancyStateFile.folder(directories, campus: campus) + "/history.sqlite3"
    }

    /// `$XDG_CACHE_HOME/gymcard/usual-now` (`…/gymcard/campuses/<name>/usual-now` for a campus profile):
    /// the status bar's usual percent for the current half hour, kept between calls.
    public static func usualNowCachePath(_ directories: XDGDirectories, campus: String?) -> String {
        directories.cacheHome + "/gymcard" + (campus.map { "/campuses/" + $0 } ?? "") + "/usual-now"
    }

    /// The history, created when missing; a damaged file moved aside is a warning.
    public static func openForWriting(_ context: Context, campus: String?) throws(HistoryError)
        -> HistoryStore
    {
        let store = try HistoryStore(path: path(context.directories, campus: campus))
        sayWarnings(of: store, context)
        return store
    }

    /// The history when there is one (readers never create it).
    public static func openForReading(_ context: Context, campus: String?) throws(HistoryError)
        -> HistoryStore?
    {
        let store = try HistoryStore.openIfPresent(path: path(context.directories, campus: campus))
        if let store { sayWarnings(of: store, context) }
        return store
    }

    private static func sayWarnings(of store: HistoryStore, _ context: Context) {
        for warning in store.warnings { context.warn("warning: " + warning) }
    }

    /// Records a poll: one attempt (success, partial or failed) and the fresh readings. Returns why it
    /// could not be recorded (a full disk); never throws, so that what was fetched is always shown.
    /// With `keepsUsual`, the status bar's usual percent is then worked out again for `settings`'
    /// facilities (``UsualNowFile/refresh(settings:context:)``).
    static func record(
        _ report: OccupancyReport, warnings: [String], context: Context, settings: OccupancySettings,
        keepsUsual: Bool
    ) -> String? {
        let (attempt, readings) = entries(for: report, warnings: warnings)
        do { try openForWriting(context, campus: settings.campus).record(attempt, readings: readings) } catch
        {
            return error.description
        }
        if keepsUsual { UsualNowFile.refresh(settings: settings, context: context) }
        return nil
    }

    /// The attempt and readings a report makes: only fresh readings are recorded; a facility that
    /// failed is a gap, never a zero; a reading taken while the hours say closed is recorded as closed.
    public static func entries(for report: OccupancyReport, warnings: [String])
        -> (HistoryAttempt, [HistoryReading])
    {
        let readings = report.facilities.compactMap { status -> HistoryReading? in
            guard status.status == .ok, let reading = status.reading else { return nil }
            return HistoryReading(
                facility: status.facility.key, facilityID: status.facility.id,
                fetchedAt: status.observedAt ?? report.observedAt, sourceTime: status.sourceTime,
                occupancy: reading.occupancy, capacity: reading.capacity,
                status: status.opening.isClosed ? .closed : .ok)
        }
        let status: HistoryAttempt.Status =
            readings.count == report.facilities.count ? .success : readings.isEmpty ? .failed : .partial
        let error = status == .success ? nil : warnings.first ?? "no facility could be read"
        return (HistoryAttempt(at: report.observedAt, status: status, error: error), readings)
    }
}

extension HistoryFiles {
    /// A day (`2026-11-01`: its first moment in `zone`) or an ISO 8601 time, or `nil`.
    public static func moment(_ text: String, zone: LocalTimeZone) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let parts = text.split(separator: "-").map { Int($0) }
        guard text.count == 10, parts.count == 3, let year = parts[0], let month = parts[1],
            let day = parts[2],
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return zone.start(of: LocalDay(year: year, month: month, day: day))
    }

    /// `history export --since`: the moment `since` names (``moment(_:zone:)``, in the campus's zone),
    /// or `nil` for none.
    ///
    /// - Throws: ``NotAMoment`` for text that is neither a day nor a time; the zone's problem.
    public static func start(since: String?, settings: OccupancySettings, context: Context) throws -> Date? {
        guard let since else { return nil }
        guard let date = moment(since, zone: try context.zone(settings.timeZone)) else {
            throw NotAMoment(text: since)
        }
        return date
    }

    /// Text that is neither a day nor a time.
    public struct NotAMoment: Error, CustomStringConvertible {
        /// The text.
        public var text: String

        /// What is wrong, with the forms that are right.
        public var description: String {
            "\(text) is neither a day (2026-11-01) nor an ISO 8601 time (2026-11-01T08:00:00Z)"
        }
    }

    /// Writes every reading from `start` on as the export `format`, piece by piece as SQLite gives the
    /// rows (a year of history is tens of megabytes of text).
    public static func export(
        _ context: Context, campus: String?, from start: Date?, format: HistoryExchange.ExportFormat,
        write: @escaping ([UInt8]) -> Void
    ) throws(HistoryError) {
        var writer = HistoryExchange.ExportWriter(format: format, output: write)
        try openForReading(context, campus: campus)?.forEachReading(
            from: start ?? Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: Double(1 << 40))
        ) { writer.add($0) }
        writer.finish()
    }
}

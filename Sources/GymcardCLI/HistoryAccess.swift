import FoundationEssentials
import History
import Occupancy
import OpeningHours
import Storage

/// What the commands share about the history: where it is, opening it, recording an occupancy refresh,
/// and history failures as exit codes.
enum HistoryAccess {
    /// `$XDG_STATE_HOME/gymcard/history.sqlite3`, or `…/gymcard/campuses/<name>/history.sqlite3` for a
    /// campus profile: each campus keeps its own history.
    static func path(_ directories: XDGDirectories, campus: String?) -> String {
        guard let campus else { return HistoryStore.path(directories) }
        return OccupancyStateFile.folder(directories, campus: campus) + "/history.sqlite3"
    }

    /// `$XDG_CACHE_HOME/gymcard/usual-now` (`…/gymcard/campuses/<name>/usual-now` for a campus profile):
    /// the status bar's usual percent for the current half hour, kept between calls.
    static func usualNowCachePath(_ directories: XDGDirectories, campus: String?) -> String {
        directories.cacheHome + "/gymcard" + (campus.map { "/campuses/" + $0 } ?? "") + "/usual-now"
    }

    /// The history, created when missing; a damaged file moved aside is said once on stderr.
    static func openForWriting(_ directories: XDGDirectories, campus: String?) throws -> HistoryStore {
        do {
            let store = try HistoryStore(path: path(directories, campus: campus))
            sayWarnings(of: store)
            return store
        } catch { throw failure(error) }
    }

    /// The history when there is one (readers never create it).
    static func openForReading(_ directories: XDGDirectories, campus: String?) throws -> HistoryStore? {
        do {
            let store = try HistoryStore.openIfPresent(path: path(directories, campus: campus))
            if let store { sayWarnings(of: store) }
            return store
        } catch { throw failure(error) }
    }

    static func sayWarnings(of store: HistoryStore) {
        for warning in store.warnings { Terminal.standardError.say("warning: " + warning) }
    }

    /// The exit code and message for a history error: 65 for a newer format, 74 otherwise.
    static func failure(_ error: any Error) -> Failure {
        if let failure = error as? Failure { return failure }
        if case .newerVersion = error as? HistoryError { return Failure("\(error)", status: .dataError) }
        return Failure("\(error)", status: .ioError)
    }

    /// Records a refresh: one attempt (success, partial or failed) and the fresh readings. Returns why it
    /// could not be recorded (a full disk), for the caller to show and to exit 74 with; never throws, so
    /// that what was fetched is always shown.
    static func record(
        _ report: OccupancyReport, warnings: [String], directories: XDGDirectories, campus: String?
    ) -> String? {
        let (attempt, readings) = entries(for: report, warnings: warnings)
        do {
            let store = try HistoryStore(path: path(directories, campus: campus))
            try store.record(attempt, readings: readings)
            sayWarnings(of: store)
            return nil
        } catch {
            return error.description
        }
    }

    /// The attempt and readings a report makes: only fresh readings are recorded; a facility that
    /// failed is a gap, never a zero; a reading taken while the hours say closed is recorded as closed.
    static func entries(for report: OccupancyReport, warnings: [String]) -> (HistoryAttempt, [HistoryReading])
    {
        let readings = report.facilities.compactMap { status -> HistoryReading? in
            guard status.status == .ok, let reading = status.reading else { return nil }
            return HistoryReading(
                facility: status.facility.key, facilityID: status.facility.id,
                fetchedAt: status.observedAt ?? report.observedAt, sourceTime: status.sourceTime,
                occupancy: reading.occupancy,
                capacity: reading.capacity, status: status.opening.isClosed ? .closed : .ok)
        }
        let status: HistoryAttempt.Status =
            readings.count == report.facilities.count ? .success : readings.isEmpty ? .failed : .partial
        let error = status == .success ? nil : warnings.first ?? "no facility could be read"
        return (HistoryAttempt(at: report.observedAt, status: status, error: error), readings)
    }
}

import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import OpeningHours
import Storage

/// One poll of a campus's facilities, the same for `occupancy` (once and `--watch`), `wait` and
/// `collect`: the opening hours around now (config file, cache, then the hours service), every
/// facility's reading, the state file, and one attempt in the history. A zone that is not installed or an
/// hours service that fails only leaves the hours unknown, with a warning.
public struct OccupancyPoll: Sendable {
    /// The campus's settings (its facilities: all, or the one waited for).
    public let settings: OccupancySettings
    /// The facilities' zone (the process's own when theirs is not installed).
    public var zone: LocalTimeZone { hours.zone }
    /// Whether a poll also keeps the status bar's usual percent current (``UsualNowFile``): true when
    /// it polls every facility the status bar shows (not `wait`, which polls one).
    public var keepsUsualCurrent = true
    /// Whether an outcome carries each facility's usual percent now (``Outcome/usualPercent``, waybar's
    /// tooltip), read from ``UsualNowFile`` after the poll.
    public var readsUsualPercent = false
    private let context: Context
    private let hours: FacilityHoursContext

    /// Reads the hours settings (an invalid config file stops the command) and looks up the zone.
    public init(settings: OccupancySettings, context: Context) throws(ConfigFileProblem) {
        self.settings = settings
        self.context = context
        hours = try FacilityHoursContext(settings: settings, context: context)
    }

    /// What a poll produced.
    public struct Outcome: Sendable {
        /// Every facility, fresh or last known, with its opening state.
        public var report: OccupancyReport
        /// The fetch's warnings (a facility that failed, a damaged state file).
        public var fetchWarnings: [String] = []
        /// The hours' warnings (a service that failed, a zone not installed).
        public var hoursWarnings: [String] = []
        /// The state file could not be saved (a full disk).
        public var saveFailure: StorageError?
        /// Why the poll is not in the history (a full disk), when it is not.
        public var notRecorded: String?
        /// Each facility's usual percent at this time of the week, by key, when the poll reads it
        /// (``OccupancyPoll/readsUsualPercent``); empty otherwise.
        public var usualPercent: [String: Double] = [:]

        /// A report alone (`--demo`: nothing fetched, saved or recorded).
        public init(report: OccupancyReport) { self.report = report }

        init(
            report: OccupancyReport, fetchWarnings: [String], hoursWarnings: [String],
            saveFailure: StorageError? = nil, hours: [String: FacilityHours]
        ) {
            self.report = report
            self.fetchWarnings = fetchWarnings
            self.hoursWarnings = hoursWarnings
            self.saveFailure = saveFailure
            self.hours = hours
        }

        /// Every warning, the fetch's first.
        public var warnings: [String] { fetchWarnings + hoursWarnings }
        /// Opening hours by facility key (absent: unknown).
        public var hours: [String: FacilityHours] = [:]

        /// How the history counts it, by what was fetched now (the report may show stored values).
        public var attempt: HistoryAttempt.Status {
            HistoryFiles.entries(for: report, warnings: fetchWarnings).0.status
        }
    }

    /// Fetches the hours and every facility at once, applies the hours, saves the state and records the
    /// poll in the history.
    ///
    /// - Throws: `FetchError.cancelled` when the task is cancelled (Ctrl-C).
    public func poll(fetcher: Fetcher) async throws(FetchError) -> Outcome {
        let now = context.clock.now
        async let loaded = hours.load(at: now, fetcher: fetcher)
        var monitor = OccupancyMonitor(
            settings: settings, fetcher: fetcher, stateFile: stateFile,
            now: { [clock = context.clock] in clock.now })
        monitor.zone = zone
        let refresh = try await monitor.refresh()
        let loadedHours = await loaded
        var outcome = Outcome(
            report: loadedHours.apply(to: refresh.report), fetchWarnings: refresh.warnings,
            hoursWarnings: loadedHours.warnings, saveFailure: refresh.saveFailure, hours: loadedHours.hours)
        outcome.notRecorded = HistoryFiles.record(
            outcome.report, warnings: refresh.warnings, context: context, settings: settings,
            keepsUsual: keepsUsualCurrent)
        return withUsualPercent(outcome)
    }

    /// The stored readings and the cached hours, without the network (status bars); nothing recorded.
    public func cached() -> Outcome {
        let now = context.clock.now
        let refresh = OccupancyMonitor.cached(settings: settings, stateFile: stateFile, now: now)
        let loadedHours = hours.cached(at: now)
        return withUsualPercent(
            Outcome(
                report: loadedHours.apply(to: refresh.report), fetchWarnings: refresh.warnings,
                hoursWarnings: loadedHours.warnings, hours: loadedHours.hours))
    }

    private func withUsualPercent(_ outcome: Outcome) -> Outcome {
        guard readsUsualPercent else { return outcome }
        var outcome = outcome
        outcome.usualPercent = UsualNowFile.usualPercents(
            outcome.report.facilities.map(\.facility), settings: settings, context: context)
        return outcome
    }

    private var stateFile: OccupancyStateFile {
        OccupancyStateFile(directories: context.directories, campus: settings.campus)
    }
}

extension OccupancyPoll {
    /// `occupancy --demo`: at each call the app's sample values for `facilities`, drifting a little from one
    /// call to the next (a `--watch` preview). Nothing is fetched, stored or recorded.
    public static func demo(_ facilities: [Facility], clock: CurrentTime) -> () -> Outcome {
        var step = 0
        return {
            defer { step += 1 }
            return Outcome(report: OccupancyReport.demo(facilities: facilities, now: clock.now, step: step))
        }
    }
}

import CivilTime
import Collector
import FoundationEssentials
import Glibc
import GymcardCore
import History
import Occupancy
import Storage
import Trends

/// `collect`'s use cases: one sample for the history (skipped moments after another), the timer's
/// units, and whether collection works.
public enum Collecting {
    /// Samples closer together than this are skipped (the timer fires every 5 minutes).
    public static let minimumSpacingSeconds: Double = 4 * 60

    /// Before the network: when the last attempt recorded was moments ago, records this one as skipped and
    /// returns true. One dated ahead of now (the clock was set back since) was taken at an unknown time:
    /// sample rather than skip.
    public static func skipsRecent(_ context: Context, campus: String?) throws(HistoryError) -> Bool {
        guard let store = try HistoryFiles.openForReading(context, campus: campus),
            let last = try store.lastTriedAttempt()
        else { return false }
        let now = context.clock.now
        let since = now.timeIntervalSince(last.at)
        guard since >= 0, since < minimumSpacingSeconds else { return false }
        try store.record(HistoryAttempt(at: now, status: .skipped), readings: [])
        return true
    }

    /// `$XDG_CONFIG_HOME/systemd/user`.
    public static func unitDirectory(_ context: Context) -> String {
        context.directories.configHome + "/systemd/user"
    }

    /// The units that run `executable` every 5 minutes with this process's XDG folders (and occupancy
    /// URL), for `campus`.
    public static func units(executable: String, campus: String?, context: Context) -> CollectorUnits {
        let passed = [
            "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "GYMCARD_OCCUPANCY_URL",
        ]
        return CollectorUnits(
            executable: executable,
            environment: passed.compactMap { name in
                context.environment[name].flatMap { $0.isEmpty ? nil : (name, $0) }
            }, campus: campus)
    }

    /// Writes the service and timer to ``unitDirectory(_:)``, replacing any there.
    public static func writeUnits(_ units: CollectorUnits, context: Context) throws(StorageError) {
        let directory = unitDirectory(context)
        try Directory.create(directory, permissions: 0o755)
        try AtomicFile.write(Array(units.service.utf8), to: directory + "/" + CollectorUnits.serviceName)
        try AtomicFile.write(Array(units.timer.utf8), to: directory + "/" + CollectorUnits.timerName)
    }

    /// The timer's files that are installed: the timer first.
    public static func installedUnits(_ context: Context) -> [String] {
        [CollectorUnits.timerName, CollectorUnits.serviceName].map { unitDirectory(context) + "/" + $0 }
            .filter { access($0, F_OK) == 0 }
    }

    /// Whether collection works.
    public struct Status: Sendable {
        /// The history's path, and whether it exists.
        public var historyPath: String
        /// The last 14 days of attempts (`nil`: no history yet).
        public var report: CollectionReport?
        /// The timer's path, and whether it is installed.
        public var timerPath: String
        /// Whether the timer is installed.
        public var timerInstalled: Bool
        /// The facilities' zone and now, for the days.
        public var labels: CivilLabels
        /// The zone's name.
        public var timeZone: String

        /// The timer is installed but the last sample is more than an hour old, or missing.
        public var isStale: Bool {
            timerInstalled && (report?.lastSample.map { labels.now.timeIntervalSince($0) > 3600 } ?? true)
        }
    }

    /// The history's last 14 days and the timer, in the facilities' zone.
    public static func status(_ context: Context, settings: OccupancySettings) throws -> Status {
        let zone = try context.zone(settings.timeZone)
        let now = context.clock.now
        let timerPath = unitDirectory(context) + "/" + CollectorUnits.timerName
        var status = Status(
            historyPath: HistoryFiles.path(context.directories, campus: settings.campus),
            timerPath: timerPath,
            timerInstalled: access(timerPath, F_OK) == 0, labels: CivilLabels(zone: zone, now: now),
            timeZone: settings.timeZone)
        if let store = try HistoryFiles.openForReading(context, campus: settings.campus) {
            let from = zone.start(of: zone.day(of: now).adding(days: -(CollectionReport.days - 1)))
            status.report = CollectionReport(
                attempts: try store.attempts(from: from, to: now.addingTimeInterval(1)),
                lastAttempt: try store.lastTriedAttempt(), zone: zone, now: now)
        }
        return status
    }
}

extension Collecting.Status {
    /// What `collect --status` prints: the history, the timer, the last sample, samples per day, gaps.
    public var lines: [String] {
        let now = labels.now
        let lastSample = report?.lastSample
        var lines = [
            report == nil ? "History: none yet (\(historyPath))" : "History: \(historyPath)",
            timerInstalled
                ? "Timer: installed (\(timerPath))"
                : "Timer: not installed; `gymcard collect --install` samples every 5 minutes",
            "Last sample: "
                + (lastSample.map { "\(Age.ago(from: $0, to: now)) (\(labels.moment($0)))" } ?? "none"),
        ]
        if let attempt = report?.lastAttempt, attempt.status == .failed,
            attempt.at > (lastSample ?? .distantPast)
        {
            lines.append(
                "Last attempt failed \(Age.ago(from: attempt.at, to: now)): \(attempt.error ?? "no reason recorded")"
            )
        }
        guard let report else { return lines }
        lines.append("Samples per day, last \(CollectionReport.days) days (\(timeZone)):")
        for entry in report.perDay {
            let bar = String(repeating: "█", count: min(24, (entry.samples * 24 + 287) / 288))
            let heading = labels.heading(entry.day)
            let count = String(entry.samples)
            lines.append(
                "  " + heading + String(repeating: " ", count: max(0, 12 - heading.count))
                    + String(repeating: " ", count: max(0, 4 - count.count)) + count + "  " + bar
                    + (entry.failures > 0 ? "  (\(entry.failures) failed)" : ""))
        }
        lines.append(
            report.gaps.first.map {
                "Gaps over 15 min: \(report.gaps.count); the longest \(DurationWords.text(Int($0.seconds))) "
                    + "from \(labels.moment($0.start))"
            } ?? "Gaps over 15 min: none")
        return lines
    }
}

extension Collecting {
    /// What installing or removing the timer did, line by line for stderr, and what to print on stdout.
    public struct TimerOutcome: Sendable {
        /// Lines for stderr.
        public var said: [String] = []
        /// The crontab line to print, when systemd could not enable the timer.
        public var crontabLine: String?
    }

    /// Writes the units for `executable` and enables the timer with `systemctl --user` through `run`;
    /// without a user manager, says how to enable it later and gives the crontab line instead.
    public static func install(executable: String, campus: String?, context: Context, run: Notifier.Run)
        throws(StorageError) -> TimerOutcome
    {
        let units = units(executable: executable, campus: campus, context: context)
        try writeUnits(units, context: context)
        let (service, timer) = (CollectorUnits.serviceName, CollectorUnits.timerName)
        var outcome = TimerOutcome(said: ["wrote \(unitDirectory(context))/\(service) and \(timer)"])
        let reload = run(["systemctl", "--user", "daemon-reload"])
        let enable = reload?.status == 0 ? run(["systemctl", "--user", "enable", "--now", timer]) : reload
        if let enable, enable.status == 0 {
            outcome.said.append(
                "enabled \(timer): a sample every 5 minutes; `gymcard collect --status` shows how it goes")
            return outcome
        }
        let reason =
            enable.map {
                $0.output.split(separator: "\n").last.map(String.init) ?? "exit status \($0.status)"
            }
            ?? "systemctl is not installed"
        outcome.said += [
            "could not enable the timer (\(reason)); in a session with a systemd user manager run: "
                + "systemctl --user enable --now \(timer)",
            "without systemd, add this line to your crontab (crontab -e) instead:",
        ]
        outcome.crontabLine = units.crontabLine
        return outcome
    }

    /// `collect --install`: the units for the gymcard that is running (`warn` gets why a build folder's is
    /// a poor one to time), written and enabled as ``install(executable:campus:context:run:)`` does.
    public static func install(campus: String?, context: Context, run: Notifier.Run, warn: (String) -> Void)
        throws(TimerNotWritten) -> TimerOutcome
    {
        let executable = installedExecutable()
        if let warning = buildFolderWarning(executable) { warn(warning) }
        do { return try install(executable: executable, campus: campus, context: context, run: run) } catch {
            throw TimerNotWritten(reason: error)
        }
    }

    /// The timer's units could not be written.
    public struct TimerNotWritten: Error, CustomStringConvertible {
        /// Why.
        public var reason: StorageError

        /// What happened.
        public var description: String { "cannot write the timer: \(reason)" }
    }

    /// Disables the timer through `run` and removes its units.
    public static func uninstall(context: Context, run: Notifier.Run) -> TimerOutcome {
        let present = installedUnits(context)
        guard !present.isEmpty else {
            return TimerOutcome(
                said: [
                    "the timer is not installed (no \(unitDirectory(context))/\(CollectorUnits.timerName))"
                ])
        }
        _ = run(["systemctl", "--user", "disable", "--now", CollectorUnits.timerName])
        for path in present { unlink(path) }
        _ = run(["systemctl", "--user", "daemon-reload"])
        return TimerOutcome(said: ["removed " + present.joined(separator: " and ")])
    }
}

import ArgumentParser
import CivilTime
import Collector
import FoundationEssentials
import Glibc
import GymcardCore
import History
import Occupancy
import Storage
import TerminalText
import Trends

/// `gymcard collect`: one quiet occupancy sample for the history, and the timer that takes one every 5
/// minutes, so "when to go" needs no server.
struct CollectCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Record one occupancy sample in the history (for timers); install or check the timer.",
        discussion: """
            Without options, fetches every facility once, records the readings in the history and the \
            stored readings, and prints nothing; a failure is one line on stderr (exit 75 partly, 69 \
            nothing fetched, 74 not recorded). A sample taken less than 4 minutes after the previous one \
            (a --watch, a manual run) is skipped and recorded as skipped. --install writes a systemd user \
            service and timer (every 5 minutes, catching up after sleep) to \
            $XDG_CONFIG_HOME/systemd/user/ and enables it with systemctl --user; without systemd it says \
            how to enable them later and prints the crontab line instead. --uninstall removes them. \
            --status shows the last sample, samples per day over 14 days and the gaps; it exits 75 when \
            the timer is installed but the last sample is more than an hour old.
            """
    )

    @Flag(name: .long, help: "Install and enable the systemd user timer (every 5 minutes).")
    var install = false

    @Flag(name: .long, help: "Disable and remove the timer.")
    var uninstall = false

    @Flag(name: .long, help: "Show whether collection works: last sample, samples per day, gaps.")
    var status = false

    @OptionGroup var campus: CampusOption

    @OptionGroup var network: NetworkOptions

    /// Samples closer together than this are skipped (the timer fires every 5 minutes).
    static let minimumSpacingSeconds: Double = 4 * 60

    func validate() throws {
        if [install, uninstall, status].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --install, --uninstall and --status")
        }
    }

    func run(in context: Context) async throws {
        let environment = context.environment
        let directories = context.directories
        if status { return try showStatus(context) }
        if install { return try installTimer(environment: environment, directories: directories) }
        if uninstall { return uninstallTimer(directories: directories) }
        try await sample(context)
    }

    // MARK: - One sample

    private func sample(_ context: Context) async throws {
        let directories = context.directories
        let settings = try campus.settings(context)
        let clock = context.clock
        let now = clock.now
        // Before the network (and the hand-over to gymcard-network): a sample moments ago is enough.
        if let store = try HistoryAccess.openForReading(directories, campus: settings.campus) {
            let last: HistoryAttempt?
            do { last = try store.lastTriedAttempt() } catch { throw HistoryAccess.failure(error) }
            // The last attempt recorded, not the latest stamped. One dated ahead of now (the clock was
            // set back since) was taken at an unknown time: sample rather than skip.
            if let last, now.timeIntervalSince(last.at) >= 0,
                now.timeIntervalSince(last.at) < Self.minimumSpacingSeconds
            {
                do { try store.record(HistoryAttempt(at: now, status: .skipped), readings: []) } catch {
                    throw HistoryAccess.failure(error)
                }
                return
            }
        }
        let monitor = OccupancyMonitor(
            settings: settings, fetcher: try network.fetcher(context),
            stateFile: OccupancyStateFile(directories: directories, campus: settings.campus),
            now: { clock.now })
        let refresh: OccupancyMonitor.Refresh
        do { refresh = try await monitor.refresh() } catch { throw Failure.silent(.interrupted) }
        if let notRecorded = HistoryAccess.record(
            refresh.report, warnings: refresh.warnings, directories: directories, campus: settings.campus)
        {
            throw Failure("the sample was not recorded in the history: \(notRecorded)", status: .ioError)
        }
        // By what was fetched now (the report may show stored values for the rest).
        let problems = refresh.warnings.joined(separator: "; ")
        switch HistoryAccess.entries(for: refresh.report, warnings: refresh.warnings).0.status {
        case .success, .skipped: return
        case .partial: throw Failure("collect: partly: \(problems)", status: .staleData)
        case .failed: throw Failure("collect: nothing fetched: \(problems)", status: .unavailable)
        }
    }

    // MARK: - The timer

    private static func unitDirectory(_ directories: XDGDirectories) -> String {
        directories.configHome + "/systemd/user"
    }

    private func installTimer(environment: [String: String], directories: XDGDirectories) throws {
        let executable = Self.installedExecutable()
        if executable.contains("/.build/") {
            Terminal.standardError.say(
                "warning: \(executable) is in a build folder; install gymcard (scripts/install) and run "
                    + "--install from there, or the timer stops working when the folder is cleaned")
        }
        let passed = [
            "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "GYMCARD_OCCUPANCY_URL",
        ]
        let units = CollectorUnits(
            executable: executable,
            environment: passed.compactMap { name in
                environment[name].flatMap { $0.isEmpty ? nil : (name, $0) }
            }, campus: campus.campus)
        let directory = Self.unitDirectory(directories)
        do {
            try Directory.create(directory, permissions: 0o755)
            try AtomicFile.write(Array(units.service.utf8), to: directory + "/" + CollectorUnits.serviceName)
            try AtomicFile.write(Array(units.timer.utf8), to: directory + "/" + CollectorUnits.timerName)
        } catch {
            throw Failure("cannot write the timer: \(error)", status: .ioError)
        }
        Terminal.standardError.say(
            "wrote \(directory)/\(CollectorUnits.serviceName) and \(CollectorUnits.timerName)")
        let reload = ChildProcess.run(["systemctl", "--user", "daemon-reload"])
        let enable =
            reload?.status == 0
            ? ChildProcess.run(["systemctl", "--user", "enable", "--now", CollectorUnits.timerName]) : reload
        if let enable, enable.status == 0 {
            Terminal.standardError.say(
                "enabled \(CollectorUnits.timerName): a sample every 5 minutes; `gymcard collect --status` shows how it goes"
            )
            return
        }
        let reason =
            enable.map {
                $0.output.split(separator: "\n").last.map(String.init) ?? "exit status \($0.status)"
            }
            ?? "systemctl is not installed"
        Terminal.standardError.say(
            "could not enable the timer (\(reason)); in a session with a systemd user manager run: "
                + "systemctl --user enable --now \(CollectorUnits.timerName)")
        Terminal.standardError.say("without systemd, add this line to your crontab (crontab -e) instead:")
        print(units.crontabLine)
    }

    private func uninstallTimer(directories: XDGDirectories) {
        let directory = Self.unitDirectory(directories)
        let paths = [CollectorUnits.timerName, CollectorUnits.serviceName].map { directory + "/" + $0 }
        let present = paths.filter { access($0, F_OK) == 0 }
        guard !present.isEmpty else {
            Terminal.standardError.say("the timer is not installed (no \(paths[0]))")
            return
        }
        _ = ChildProcess.run(["systemctl", "--user", "disable", "--now", CollectorUnits.timerName])
        for path in present { unlink(path) }
        _ = ChildProcess.run(["systemctl", "--user", "daemon-reload"])
        Terminal.standardError.say("removed " + present.joined(separator: " and "))
    }

    /// The `gymcard` beside the running binary (this may be gymcard-network), by its absolute path.
    static func installedExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return AtomicFile.directory(of: executable) + "/gymcard"
    }

    // MARK: - Status

    private func showStatus(_ context: Context) throws {
        let directories = context.directories
        let settings = try campus.settings(context)
        let zone = try context.zone(settings.timeZone)
        let now = context.clock.now
        let labels = CivilLabels(zone: zone, now: now)
        let historyPath = HistoryAccess.path(directories, campus: settings.campus)
        let timerPath = Self.unitDirectory(directories) + "/" + CollectorUnits.timerName
        let timerInstalled = access(timerPath, F_OK) == 0
        var lines: [String] = []
        var report: CollectionReport?
        if let store = try HistoryAccess.openForReading(directories, campus: settings.campus) {
            do {
                let from = zone.start(of: zone.day(of: now).adding(days: -(CollectionReport.days - 1)))
                report = CollectionReport(
                    attempts: try store.attempts(from: from, to: now.addingTimeInterval(1)),
                    lastAttempt: try store.lastTriedAttempt(), zone: zone, now: now)
            } catch { throw HistoryAccess.failure(error) }
            lines.append("History: \(historyPath)")
        } else {
            lines.append("History: none yet (\(historyPath))")
        }
        lines.append(
            timerInstalled
                ? "Timer: installed (\(timerPath))"
                : "Timer: not installed; `gymcard collect --install` samples every 5 minutes")
        let lastSample = report?.lastSample
        lines.append(
            "Last sample: "
                + (lastSample.map { "\(Age.ago(from: $0, to: now)) (\(labels.moment($0)))" } ?? "none"))
        if let attempt = report?.lastAttempt, attempt.status == .failed,
            attempt.at > (lastSample ?? .distantPast)
        {
            lines.append(
                "Last attempt failed \(Age.ago(from: attempt.at, to: now)): \(attempt.error ?? "no reason recorded")"
            )
        }
        if let report {
            lines.append("Samples per day, last \(CollectionReport.days) days (\(settings.timeZone)):")
            for entry in report.perDay {
                let bar = String(repeating: "█", count: min(24, (entry.samples * 24 + 287) / 288))
                var line =
                    "  " + labels.heading(entry.day).padding(12) + String(entry.samples).leftPadded(4) + "  "
                line += bar
                if entry.failures > 0 { line += "  (\(entry.failures) failed)" }
                lines.append(line)
            }
            if let longest = report.gaps.first {
                lines.append(
                    "Gaps over 15 min: \(report.gaps.count); the longest \(DurationText.text(Int(longest.seconds))) "
                        + "from \(labels.moment(longest.start))")
            } else {
                lines.append("Gaps over 15 min: none")
            }
        }
        // Paths and the last recorded error are not gymcard's own text.
        Terminal(environment: context.environment).printLines(lines.map(\.terminalSafe))
        if timerInstalled, lastSample.map({ now.timeIntervalSince($0) > 3600 }) ?? true {
            throw Failure(
                "the timer is installed but the last sample is "
                    + (lastSample.map { "from \(Age.ago(from: $0, to: now))" } ?? "missing")
                    + "; check `systemctl --user status \(CollectorUnits.timerName)`",
                status: .staleData)
        }
    }
}

extension String {
    /// The string padded with spaces on the right to `width`.
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }

    /// The string padded with spaces on the left to `width`.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

import ArgumentParser
import CivilTime
import Fetching
import FoundationEssentials
import Glibc
import GymcardCore
import Occupancy
import OpeningHours
import Storage
import TerminalText
import TextSearch

/// `gymcard wait`: block until a facility is quiet enough, then print one line and exit 0.
struct WaitCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until a facility is below a threshold (and stays there), then exit 0.",
        discussion: """
            Polls the facility every --interval (at least 1 minute; longer after errors), records every \
            poll in the history, and ends when the facility has been below --below for --for: it prints \
            one line ("McComas Hall is at 24% (144/600), below 30% for 10 min") and exits 0, so that \
            `gymcard wait --below 30% && notify-send go` works. On a terminal an updating status line \
            shows the current value, the time held and the next check (on standard error); piped, nothing \
            is printed before the final line. A repeated source reading counts once; a gap of more than \
            15 minutes between readings starts the hold again.

            Opening hours (see `gymcard hours`) end a wait that cannot succeed: a closed facility, or one \
            that closes before the condition could be met, exits 3 and says when it opens. Unknown hours \
            never stop a wait.

            --notify also sends a desktop notification (libnotify's notify-send, when installed) and a \
            push to the ntfy URL in the config file (notify.ntfy), when the wait ends; a notification \
            that fails is only a warning.

            Exit status: 0 met; 3 closed, or closes before it could be met; 124 --timeout passed (as GNU \
            timeout); 69 the occupancy source was unreachable when the timeout passed; 130 Ctrl-C.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The line to get under: a percentage (30%) or a number of people (120).", valueName: "level"))
    var below: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The facility to watch, by key or name (default: the first configured).", valueName: "key"))
    var facility: String?

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "How long it must stay below, e.g. 10m (default: 0, the first reading below).",
            valueName: "duration"))
    var hold: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give up after this long, e.g. 2h, with exit 124 (default: no limit).", valueName: "duration"))
    var timeout: String?

    @Option(
        name: .long,
        help: ArgumentHelp("How often to check, at least 1m (default: 2m).", valueName: "duration"))
    var interval = "2m"

    @OptionGroup var campus: CampusOption

    @Flag(name: .long, help: "Also send a desktop notification and an ntfy push when the wait ends.")
    var notify = false

    /// The longest wait between polls after repeated errors.
    static let longestBackoffSeconds = 15 * 60

    func validate() throws {
        _ = try condition()
        guard let seconds = DurationText.seconds(interval), (60...3600).contains(seconds) else {
            throw ValidationError(
                "--interval must be a duration from 1m to 1h, such as 2m (polling politely)")
        }
        if let timeout {
            guard let seconds = DurationText.seconds(timeout), (60...7 * 86_400).contains(seconds) else {
                throw ValidationError("--timeout must be a duration from 1m to 7d, such as 2h")
            }
        }
    }

    /// The condition the options describe.
    func condition() throws -> WaitCondition {
        let text = below.trimmed
        let threshold: WaitCondition.Threshold
        if text.hasSuffix("%") {
            guard let value = Double(text.dropLast().trimmed), value > 0, value <= 100 else {
                throw ValidationError(
                    "--below \(below): give a percentage above 0 and at most 100, such as 30%")
            }
            threshold = .percent(value)
        } else {
            guard let value = Int(text), value > 0 else {
                throw ValidationError("--below \(below): give a percentage (30%) or a number of people (120)")
            }
            threshold = .people(value)
        }
        var holdSeconds = 0
        if let hold, hold != "0" {
            guard let seconds = DurationText.seconds(hold), seconds <= 8 * 3600 else {
                throw ValidationError("--for must be a duration up to 8h, such as 10m")
            }
            holdSeconds = seconds
        }
        return WaitCondition(threshold: threshold, holdSeconds: Double(holdSeconds))
    }

    func run(in context: Context) async throws {
        let directories = context.directories
        let settings = try campus.settings(context)
        let clock = context.clock
        let chosen = try Self.facility(facility, in: settings)
        let notifier = notify ? try Notifier(context: context) : nil
        var watched = settings
        watched.facilities = [chosen]
        let facilityHours = try FacilityHoursContext(settings: watched, context: context)
        let fetcher = Fetcher(
            client: try context.online().makeClient("gymcard/\(Gymcard.version)"), policy: FetchPolicy())
        let monitor = OccupancyMonitor(
            settings: watched, fetcher: fetcher,
            stateFile: OccupancyStateFile(directories: directories, campus: settings.campus),
            now: { clock.now }, zone: facilityHours.zone)
        let condition = try condition()
        if case .people = condition.threshold, chosen.measure == .percent {
            throw Failure(
                "\(chosen.name) shows only a percentage, not a head count; give --below as a percentage, such as 30%",
                status: .usage)
        }
        let intervalSeconds = DurationText.seconds(interval) ?? 120
        let deadline = timeout.flatMap(DurationText.seconds).map { clock.now.addingTimeInterval(Double($0)) }
        let status = StatusLine(enabled: Terminal.standardError.isTerminal)
        var progress = ThresholdWait(condition: condition)
        var failures = 0
        var lastProblem: String?
        var warned = Set<String>()

        while true {
            let hoursLoaded = await facilityHours.load(at: clock.now, fetcher: fetcher)
            let refresh: OccupancyMonitor.Refresh
            do { refresh = try await monitor.refresh() } catch { throw Failure.silent(.interrupted) }
            let report = hoursLoaded.apply(to: refresh.report)
            for warning in hoursLoaded.warnings where warned.insert(warning).inserted {
                status.say(warning)
            }
            if let notRecorded = HistoryAccess.record(
                report, warnings: refresh.warnings, directories: directories, campus: settings.campus),
                warned.insert(notRecorded).inserted
            {
                status.say("not recorded in the history: \(notRecorded)")
            }
            let line = report.facilities[0]
            let reading = line.status == .ok ? line.reading : nil
            if reading == nil {
                failures += 1
                lastProblem = line.problem ?? refresh.warnings.first
            } else {
                failures = 0
                lastProblem = nil
            }
            let verdict = progress.observe(
                reading, fetchedAt: report.observedAt, opening: line.opening,
                hours: hoursLoaded.hours[chosen.key] ?? .unknown)
            let labels = CivilLabels(zone: facilityHours.zone, now: clock.now)
            switch verdict {
            case .met(let held):
                let latest = progress.latest ?? OccupancyReading(occupancy: 0, capacity: chosen.capacity)
                var message =
                    "\(chosen.name) is at \(latest.percent)% (\(latest.occupancy)/\(latest.capacity)), below \(condition.thresholdText)"
                if condition.holdSeconds > 0 { message += " for \(Self.minutes(held))" }
                status.clear()
                print(message.terminalSafe)
                await send(
                    notifier, title: "\(chosen.name) is quiet", message: message, urgent: true,
                    fetcher: fetcher)
                return
            case .closed(let opensAt):
                let when = opensAt.map { "; it opens " + labels.soon($0) } ?? ""
                try await end(
                    "\(chosen.name) is closed\(when)", status: .closed, notifier: notifier, fetcher: fetcher,
                    line: status)
            case .closesFirst(let closesAt, let opensAgain):
                let again = opensAgain.map { "; it opens again " + labels.soon($0) } ?? ""
                try await end(
                    "\(chosen.name) closes at \(labels.clock(closesAt)), before it could stay below "
                        + "\(condition.thresholdText) for \(Self.minutes(condition.holdSeconds))\(again)",
                    status: .closed, notifier: notifier, fetcher: fetcher, line: status)
            case .waiting:
                break
            }
            // How long until the next poll: the interval, doubled for each failure in a row (up to 15 min).
            let backoff = min(
                Self.longestBackoffSeconds, intervalSeconds << min(max(0, failures - 1), 8))
            var next = clock.now.addingTimeInterval(Double(backoff))
            if let deadline, next >= deadline {
                guard clock.now < deadline else {
                    if let lastProblem {
                        try await end(
                            "\(chosen.name) could not be read before the timeout: \(lastProblem)",
                            status: .unavailable, notifier: notifier, fetcher: fetcher, line: status)
                    }
                    let now = progress.latest.map { " (it is at \($0.percent)%)" } ?? ""
                    try await end(
                        "\(chosen.name) did not stay below \(condition.thresholdText)"
                            + (condition.holdSeconds > 0 ? " for \(Self.minutes(condition.holdSeconds))" : "")
                            + " within \(timeout ?? "")\(now)",
                        status: .timedOut, notifier: notifier, fetcher: fetcher, line: status)
                }
                next = deadline
            }
            // The status line, redrawn each second with the time to the next check.
            while clock.now < next {
                status.draw(
                    Self.describe(
                        chosen, progress: progress, condition: condition, problem: lastProblem,
                        nextCheckSeconds: next.timeIntervalSince(clock.now)))
                let step =
                    status.enabled
                    ? min(1, next.timeIntervalSince(clock.now)) : next.timeIntervalSince(clock.now)
                do { try await clock.sleep(seconds: step) } catch { throw Failure.silent(.interrupted) }
            }
        }
    }

    /// Ends the wait with `message` on stderr and `status`, after the notifications.
    private func end(
        _ message: String, status: ExitStatus, notifier: Notifier?, fetcher: Fetcher, line: StatusLine
    ) async throws -> Never {
        line.clear()
        await send(notifier, title: "gymcard wait ended", message: message, urgent: false, fetcher: fetcher)
        throw Failure(message, status: status)
    }

    private func send(_ notifier: Notifier?, title: String, message: String, urgent: Bool, fetcher: Fetcher)
        async
    {
        guard let notifier else { return }
        for warning in await notifier.send(title: title, message: message, urgent: urgent, fetcher: fetcher) {
            Terminal.standardError.say("warning: " + warning)
        }
    }

    /// `McComas Hall 41% (246/600) · waiting for below 30% · held 3 of 10 min · next check in 1:45`.
    static func describe(
        _ facility: Facility, progress: ThresholdWait, condition: WaitCondition, problem: String?,
        nextCheckSeconds: Double
    ) -> String {
        var parts: [String] = []
        if let latest = progress.latest {
            parts.append("\(facility.name) \(latest.percent)% (\(latest.occupancy)/\(latest.capacity))")
        } else {
            parts.append("\(facility.name) not read yet")
        }
        parts.append("waiting for below \(condition.thresholdText)")
        if condition.holdSeconds > 0 {
            let held = progress.belowSince.map { _ in progress.heldSeconds } ?? 0
            parts.append("held \(Int(held / 60)) of \(Self.minutes(condition.holdSeconds))")
        }
        if let problem { parts.append("last check failed: \(problem)") }
        let seconds = max(0, Int(nextCheckSeconds.rounded(.up)))
        parts.append("next check in \(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)")
        return parts.joined(separator: " · ")
    }

    /// `10 min`, `1 h 30 min`.
    static func minutes(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole < 3600 ? "\(whole / 60) min" : DurationText.text(whole)
    }

    /// The facility named by `argument` (key, name or short name), or the first configured.
    static func facility(_ argument: String?, in settings: OccupancySettings) throws -> Facility {
        guard let argument else { return settings.facilities[0] }
        let wanted = argument.lowercased()
        let matches = settings.facilities.filter {
            $0.key.lowercased() == wanted || $0.name.lowercased() == wanted
                || $0.shortName.lowercased() == wanted
        }
        guard let match = matches.first else {
            let keys = settings.facilities.map(\.key).joined(separator: ", ")
            throw Failure("no facility \(argument); give one of \(keys)", status: .usage)
        }
        return match
    }
}

/// One line on standard error, redrawn in place, when it is a terminal; nothing otherwise.
struct StatusLine {
    /// Whether standard error is a terminal.
    let enabled: Bool

    init(enabled: Bool) {
        self.enabled = enabled
        Interrupt.clearsStatusLine = enabled
    }

    /// Replaces the line (cut to the terminal's width so that it never wraps).
    func draw(_ text: String) {
        guard enabled else { return }
        var size = winsizeColumns()
        if size < 20 { size = 80 }
        let safe = text.terminalSafe
        let clipped = safe.count >= size ? String(safe.prefix(size - 2)) + "…" : safe
        Terminal.standardError.write("\r\u{1B}[K" + clipped)
    }

    /// Removes the line.
    func clear() {
        guard enabled else { return }
        Terminal.standardError.write("\r\u{1B}[K")
    }

    /// Says `message` on a line of its own, above the status line.
    func say(_ message: String) {
        clear()
        Terminal.standardError.say(message)
    }

    private func winsizeColumns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return 80 }
        return Int(size.ws_col)
    }
}

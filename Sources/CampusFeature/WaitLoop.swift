import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours

/// `wait`'s loop: poll the facility every interval (doubled after each failure in a row, up to 15
/// minutes), feed each poll to ``ThresholdWait`` with the source's own time, and end when the condition
/// is met, the hours say it cannot be, or the timeout passes. Polls stay at least a minute apart: a
/// timeout shorter than that is one poll.
public struct WaitLoop: Sendable {
    /// The facility waited for.
    public var facility: Facility
    /// Below what, for how long.
    public var condition: WaitCondition
    /// Seconds between polls while they succeed.
    public var intervalSeconds: Int
    /// Seconds until the wait gives up (`nil`: never).
    public var timeoutSeconds: Int?

    /// The longest wait between polls after repeated errors.
    public static let longestBackoffSeconds = 15 * 60
    /// The shortest time between two polls.
    public static let shortestSpacingSeconds = 60

    /// Creates a loop.
    public init(facility: Facility, condition: WaitCondition, intervalSeconds: Int, timeoutSeconds: Int?) {
        self.facility = facility
        self.condition = condition
        self.intervalSeconds = intervalSeconds
        self.timeoutSeconds = timeoutSeconds
    }

    /// How a wait ended.
    public enum End: Sendable, Equatable {
        /// Below the line for long enough: the last reading, and how long it held.
        case met(OccupancyReading, heldSeconds: Double)
        /// The facility is closed; when it opens, when known.
        case closed(opensAt: Date?)
        /// It closes before the condition could be met; when it opens again, when known.
        case closesFirst(closesAt: Date, opensAgainAt: Date?)
        /// The timeout passed; the latest reading, when there was one.
        case timedOut(latest: OccupancyReading?)
        /// The timeout passed while the facility could not be read: the last problem.
        case unreadable(problem: String)
    }

    /// Where a wait stands between polls.
    public struct Progress: Sendable {
        /// The latest good reading.
        public var latest: OccupancyReading?
        /// How long it has been below the line (`nil`: it is not below).
        public var heldSeconds: Double?
        /// Why the last poll failed, when it did.
        public var problem: String?
        /// Seconds to the next poll.
        public var nextCheckSeconds: Double
    }

    /// Polls until the wait ends. `warn` gets each new warning once (hours, the history); `show` gets the
    /// progress before each sleep, and every second while `redraws` (a status line on a terminal).
    ///
    /// - Throws: `FetchError.cancelled` on Ctrl-C.
    public func run(
        poll: OccupancyPoll, fetcher: Fetcher, clock: CurrentTime, redraws: Bool,
        warn: (String) -> Void, show: (Progress) -> Void
    ) async throws(FetchError) -> End {
        try await run(
            next: { () async throws(FetchError) in try await poll.poll(fetcher: fetcher) }, clock: clock,
            redrawSeconds: redraws ? 1 : nil, warn: warn, show: show)
    }

    /// The same over any source of polls (`wait --demo`: ``DemoGym``'s readings on a simulated clock);
    /// `show` gets the progress every `redrawSeconds` of `clock`'s time, when given.
    public func run(
        next: () async throws(FetchError) -> OccupancyPoll.Outcome, clock: CurrentTime,
        redrawSeconds: Double?,
        warn: (String) -> Void, show: (Progress) -> Void
    ) async throws(FetchError) -> End {
        let deadline = timeoutSeconds.map { clock.now.addingTimeInterval(Double($0)) }
        var progress = ThresholdWait(condition: condition)
        var failures = 0
        var problem: String?
        var warned = Set<String>()
        while true {
            let pollStarted = clock.now
            let outcome = try await next()
            let notRecorded = outcome.notRecorded.map { ["not recorded in the history: " + $0] } ?? []
            for warning in outcome.hoursWarnings + notRecorded where warned.insert(warning).inserted {
                warn(warning)
            }
            let line = outcome.report.facilities[0]
            let reading = line.status == .ok ? line.reading : nil
            failures = reading == nil ? failures + 1 : 0
            problem = reading == nil ? line.problem ?? outcome.fetchWarnings.first ?? "no reading" : nil
            switch progress.observe(
                reading, fetchedAt: outcome.report.observedAt, sourceTime: line.sourceTime,
                opening: line.opening, hours: outcome.hours[facility.key] ?? .unknown)
            {
            case .met(let held):
                return .met(
                    progress.latest ?? reading ?? OccupancyReading(occupancy: 0, capacity: 1),
                    heldSeconds: held)
            case .closed(let opensAt): return .closed(opensAt: opensAt)
            case .closesFirst(let closesAt, let again):
                return .closesFirst(closesAt: closesAt, opensAgainAt: again)
            case .waiting: break
            }
            let backoff = min(Self.longestBackoffSeconds, intervalSeconds << min(max(0, failures - 1), 8))
            // Polls are spaced from when each began, so the fetches' own seconds do not add up.
            var next = pollStarted.addingTimeInterval(Double(backoff))
            if let deadline, next >= deadline {
                // A last poll at the deadline, unless it would come sooner than a minute after this one
                // began (not ended: the fetch's own seconds made `--timeout 3m` end at 2 min).
                guard deadline.timeIntervalSince(pollStarted) >= Double(Self.shortestSpacingSeconds)
                else {
                    if let problem { return .unreadable(problem: problem) }
                    return .timedOut(latest: progress.latest)
                }
                next = deadline
            }
            while clock.now < next {
                let left = next.timeIntervalSince(clock.now)
                show(
                    Progress(
                        latest: progress.latest,
                        heldSeconds: progress.belowSince.map { _ in progress.heldSeconds },
                        problem: problem, nextCheckSeconds: left))
                do { try await clock.sleep(seconds: redrawSeconds.map { min($0, left) } ?? left) } catch {
                    throw .cancelled
                }
            }
        }
    }

    /// Tells of the end of a wait through `notifier` (a desktop notification, an ntfy push): urgent when
    /// the condition was met. Returns the warnings of what failed.
    public func notify(_ end: End, message: String, notifier: Notifier, fetcher: Fetcher, run: Notifier.Run)
        async -> [String]
    {
        let met = if case .met = end { true } else { false }
        return await notifier.send(
            title: met ? "\(facility.name) is quiet" : "gymcard wait ended", message: message, urgent: met,
            fetcher: fetcher, run: run)
    }

    /// `24% (144/600)`, or `45%` where the page gives no head count; over 100 % as it is with
    /// `overCapacity` (a GoBoard or Waitz campus: `124% (31/25)`).
    public static func describe(_ reading: OccupancyReading, overCapacity: Bool = false) -> String {
        "\(reading.percent(overCapacity: overCapacity))%"
            + (reading.countsPeople ? " (\(reading.occupancy)/\(reading.capacity))" : "")
    }

    /// How the wait ended, in words: `McComas Hall is at 24% (144/600), below 30% for 10 min`.
    public static func words(
        _ end: End, _ facility: Facility, _ condition: WaitCondition, _ labels: CivilLabels, timeout: String,
        overCapacity: Bool = false
    ) -> String {
        let name = facility.name
        let holding = condition.holdSeconds > 0 ? " for \(minutes(condition.holdSeconds))" : ""
        switch end {
        case .met(let reading, let held):
            let time = condition.holdSeconds > 0 ? " for \(minutes(held))" : ""
            return
                "\(name) is at \(describe(reading, overCapacity: overCapacity)), below \(condition.thresholdText)\(time)"
        case .closed(let opensAt):
            return "\(name) is closed" + (opensAt.map { "; it opens " + labels.soon($0) } ?? "")
        case .closesFirst(let closesAt, let again):
            return "\(name) closes at \(labels.clock(closesAt)), before it could stay below "
                + "\(condition.thresholdText)\(holding)"
                + (again.map { "; it opens again " + labels.soon($0) } ?? "")
        case .timedOut(let latest):
            return "\(name) did not stay below \(condition.thresholdText)\(holding) within \(timeout)"
                + (latest.map { " (it is at \($0.percent(overCapacity: overCapacity))%)" } ?? "")
        case .unreadable(let problem):
            return "\(name) could not be read before the timeout: \(problem)"
        }
    }

    /// `McComas Hall 41% (246/600) · waiting for below 30% · held 3 of 10 min · next check in 1:45`.
    public static func describe(
        _ facility: Facility, _ progress: WaitLoop.Progress, _ condition: WaitCondition,
        overCapacity: Bool = false
    )
        -> String
    {
        var parts = [
            facility.name
                + (progress.latest.map { " " + WaitLoop.describe($0, overCapacity: overCapacity) }
                    ?? " not read yet")
        ]
        parts.append("waiting for below \(condition.thresholdText)")
        if condition.holdSeconds > 0 {
            parts.append("held \(Int((progress.heldSeconds ?? 0) / 60)) of \(minutes(condition.holdSeconds))")
        }
        if let problem = progress.problem { parts.append("last check failed: \(problem)") }
        let seconds = max(0, Int(progress.nextCheckSeconds.rounded(.up)))
        parts.append("next check in \(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)")
        return parts.joined(separator: " · ")
    }

    /// `10 min`, `1 h 30 min`.
    public static func minutes(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole < 3600 ? "\(whole / 60) min" : DurationWords.text(whole)
    }
}

import FoundationEssentials
import OpeningHours

/// What `gymcard wait` waits for: a facility below a threshold, and staying below it for a while
/// (Prometheus's `for:`: the condition must hold for the whole duration, not once).
public struct WaitCondition: Sendable, Equatable {
    /// The line to get under.
    public enum Threshold: Sendable, Equatable {
        /// Percent full, 0–100 (compared exactly: 29.9 % is below 30 %).
        case percent(Double)
        /// People inside.
        case people(Int)
    }

    /// Below what.
    public var threshold: Threshold
    /// How long it must stay below, in seconds (0: the first reading below is enough).
    public var holdSeconds: Double

    /// Creates a condition.
    public init(threshold: Threshold, holdSeconds: Double) {
        self.threshold = threshold
        self.holdSeconds = holdSeconds
    }

    /// Whether a reading is below the line.
    public func isBelow(_ reading: OccupancyReading) -> Bool {
        switch threshold {
        case .percent(let limit):
            guard reading.capacity > 0 else { return false }
            return Double(reading.occupancy) * 100 < limit * Double(reading.capacity)
        case .people(let limit):
            // A percent-only page gives no head count to compare with.
            return reading.countsPeople && reading.occupancy < limit
        }
    }

    /// `30%` or `120 people`.
    public var thresholdText: String {
        switch threshold {
        case .percent(let limit):
            return (limit == limit.rounded() ? "\(Int(limit))" : "\(limit)") + "%"
        case .people(let limit): return "\(limit) people"
        }
    }
}

/// A wait in progress, fed one poll at a time; decides when the condition is met, and when it cannot be
/// met today because the facility is closed or closes first.
///
/// Time held is measured between observations: the source's own time when it gives one (a repeated
/// source reading is the same observation and counts once), else the fetch time. A failed poll is a gap:
/// it neither breaks nor extends the hold, but a gap of more than 15 minutes between observations starts
/// the hold again (GymBuddy's rule: never bridge gaps longer than that).
public struct ThresholdWait: Sendable {
    /// What is waited for.
    public let condition: WaitCondition
    /// The longest gap between observations a hold survives.
    public static let longestGapSeconds: Double = 15 * 60

    /// The latest good reading.
    public private(set) var latest: OccupancyReading?
    /// When the current stretch below the line began (observation time), if it is below now.
    public private(set) var belowSince: Date?
    private var lastObservation: Date?

    /// How long it has been below the line, by the observations so far (0 when it is not below).
    public var heldSeconds: Double {
        guard let belowSince, let lastObservation else { return 0 }
        return max(0, lastObservation.timeIntervalSince(belowSince))
    }
    private var lastSourceTime: Date?

    /// Starts a wait.
    public init(condition: WaitCondition) { self.condition = condition }

    /// What a poll decided.
    public enum Verdict: Sendable, Equatable {
        /// Below the line for long enough: how long, in seconds.
        case met(heldSeconds: Double)
        /// Not yet: how long it has been below so far (nil: it is not below).
        case waiting(heldSeconds: Double?)
        /// The facility is closed; when it opens, when known.
        case closed(opensAt: Date?)
        /// It closes (at `closesAt`) before the condition could be met; when it opens again, when known.
        case closesFirst(closesAt: Date, opensAgainAt: Date?)
    }

    /// Takes one poll: the reading (`nil` when the poll failed), when it was fetched, the source's own time
    /// when it gives one, the opening state then, and the hours (for when it opens again).
    public mutating func observe(
        _ reading: OccupancyReading?, fetchedAt: Date, sourceTime: Date? = nil, opening: OpeningState,
        hours: FacilityHours = .unknown
    ) -> Verdict {
        if case .closed(let opensAt) = opening {
            belowSince = nil
            return .closed(opensAt: opensAt)
        }
        if let reading, sourceTime == nil || sourceTime != lastSourceTime {
            let observedAt = sourceTime ?? fetchedAt
            if let lastObservation, observedAt.timeIntervalSince(lastObservation) > Self.longestGapSeconds {
                belowSince = nil
            }
            latest = reading
            lastObservation = observedAt
            lastSourceTime = sourceTime
            if condition.isBelow(reading) {
                if belowSince == nil { belowSince = observedAt }
            } else {
                belowSince = nil
            }
        }
        let held = belowSince.map { max(0, (lastObservation ?? fetchedAt).timeIntervalSince($0)) }
        if let held, held >= condition.holdSeconds { return .met(heldSeconds: held) }
        if case .open(let closesAt?) = opening {
            let stillNeeded = condition.holdSeconds - (held ?? 0)
            if closesAt.timeIntervalSince(fetchedAt) < stillNeeded {
                let opensAgain = hours.openings.map(\.opens).filter { $0 > closesAt }.min()
                return .closesFirst(closesAt: closesAt, opensAgainAt: opensAgain)
            }
        }
        return .waiting(heldSeconds: held)
    }
}

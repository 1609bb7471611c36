import CivilTime
import FoundationEssentials
import History

/// Whether collection works (`collect --status`): the last sample, samples per local day over the last
/// 14 days, and the gaps between samples longer than 15 minutes.
public struct CollectionReport: Sendable {
    /// Days covered.
    public static let days = 14
    /// A pause between samples longer than this is a gap.
    public static let gapSeconds: Double = 15 * 60

    /// The latest attempt that was tried.
    public var lastAttempt: HistoryAttempt?
    /// The latest successful (or partial) sample.
    public var lastSample: Date?
    /// Samples per day, newest day first: the day and how many samples succeeded or partly succeeded,
    /// and how many failed.
    public var perDay: [(day: LocalDay, samples: Int, failures: Int)]
    /// Gaps in the window, longest first: when each began and how long it lasted.
    public var gaps: [(start: Date, seconds: Double)]

    /// Builds the report from the attempts of the last 14 days.
    public init(attempts: [HistoryAttempt], lastAttempt: HistoryAttempt?, zone: LocalTimeZone, now: Date) {
        self.lastAttempt = lastAttempt
        let samples = attempts.filter { $0.status == .success || $0.status == .partial }
        lastSample = samples.last?.at
        let today = zone.day(of: now)
        var counts: [Int: (samples: Int, failures: Int)] = [:]
        for attempt in attempts {
            let day = zone.day(of: attempt.at).number
            switch attempt.status {
            case .success, .partial: counts[day, default: (0, 0)].samples += 1
            case .failed: counts[day, default: (0, 0)].failures += 1
            case .skipped: break
            }
        }
        perDay = (0..<Self.days).map { back in
            let day = today.adding(days: -back)
            let count = counts[day.number] ?? (0, 0)
            return (day, count.samples, count.failures)
        }
        var gaps: [(start: Date, seconds: Double)] = []
        for (earlier, later) in zip(samples, samples.dropFirst()) {
            let seconds = later.at.timeIntervalSince(earlier.at)
            if seconds > Self.gapSeconds { gaps.append((earlier.at, seconds)) }
        }
        if let last = samples.last, now.timeIntervalSince(last.at) > Self.gapSeconds {
            gaps.append((last.at, now.timeIntervalSince(last.at)))
        }
        self.gaps = gaps.sorted { $0.seconds > $1.seconds }
    }
}

import CivilTime
import FoundationEssentials

/// The quietest times to go in the coming hours, for a workout of a given length (`gymcard best`).
///
/// Each candidate window is scored over its whole length from the heatmap, each half hour weighted by
/// how much of the window it covers (GymBuddy's rule: score the workout, not its start). A window that
/// touches a half hour without enough history is never suggested: the heatmap does not bridge gaps; nor
/// is one that `allowed` refuses (one not wholly inside known opening hours). Candidates start now and at
/// every half hour after; the best ones that do not overlap are returned, quietest first.
public enum QuietWindows {
    /// A suggested time.
    public struct Window: Sendable, Equatable {
        /// When to start.
        public var start: Date
        /// When the workout ends.
        public var end: Date
        /// The usual percent full over the window.
        public var meanPercent: Double
    }

    /// How busy a usual percent is (GymBuddy's bands: 40, 65 and 85 %).
    public static func band(_ percent: Double) -> String {
        switch percent {
        case ..<40: return "quiet"
        case ..<65: return "moderate"
        case ..<85: return "busy"
        default: return "packed"
        }
    }

    /// Up to `count` non-overlapping windows of `durationSeconds` starting within the next
    /// `withinSeconds` (and ending by then), quietest first; empty when the history does not cover any.
    public static func find(
        in heatmap: WeeklyHeatmap, zone: LocalTimeZone, now: Date, withinSeconds: Double,
        durationSeconds: Double,
        count: Int = 3, allowed: (_ start: Date, _ end: Date) -> Bool = { _, _ in true }
    ) -> [Window] {
        let horizon = now.addingTimeInterval(withinSeconds)
        var candidates: [Window] = []
        var start = now
        while start.addingTimeInterval(durationSeconds) <= horizon {
            if allowed(start, start.addingTimeInterval(durationSeconds)),
                let mean = score(heatmap, zone: zone, from: start, seconds: durationSeconds)
            {
                candidates.append(
                    Window(start: start, end: start.addingTimeInterval(durationSeconds), meanPercent: mean))
            }
            start = nextSlotBoundary(after: start, zone: zone)
        }
        var chosen: [Window] = []
        for candidate in candidates.sorted(by: { ($0.meanPercent, $0.start) < ($1.meanPercent, $1.start) }) {
            guard chosen.count < count else { break }
            if chosen.allSatisfy({ candidate.end <= $0.start || candidate.start >= $0.end }) {
                chosen.append(candidate)
            }
        }
        return chosen
    }

    /// The time-weighted usual percent over `[start, start + seconds)`, or `nil` when a half hour in it has
    /// no value.
    static func score(_ heatmap: WeeklyHeatmap, zone: LocalTimeZone, from start: Date, seconds: Double)
        -> Double?
    {
        var total = 0.0
        var covered = 0.0
        var moment = start
        let end = start.addingTimeInterval(seconds)
        while moment < end {
            let boundary = min(nextSlotBoundary(after: moment, zone: zone), end)
            guard let percent = heatmap.cell(at: moment, zone: zone).meanPercent else { return nil }
            let span = boundary.timeIntervalSince(moment)
            total += percent * span
            covered += span
            moment = boundary
        }
        return covered > 0 ? total / covered : nil
    }

    /// The next :00 or :30 on the local clock strictly after `date`.
    static func nextSlotBoundary(after date: Date, zone: LocalTimeZone) -> Date {
        let clock = zone.clock(of: date)
        let secondsIntoMinute = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        let secondsIntoSlot = Double((clock.minute % 30) * 60) + secondsIntoMinute
        return date.addingTimeInterval(30 * 60 - secondsIntoSlot)
    }
}

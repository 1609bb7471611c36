import CivilTime
import FoundationEssentials

/// How opening states read to a person, in one place for `hours`, `occupancy`, the status bars and
/// `wait`: "closed · opens 6:00 AM", "closes in 25 min", "open until 11:00 PM".
public enum OpeningWords {
    /// `opens 6:00 AM` today, `opens tomorrow at 6:00 AM`, `opens Monday at 6:00 AM`.
    public static func opens(_ date: Date, zone: LocalTimeZone, now: Date) -> String {
        "opens " + CivilLabels(zone: zone, now: now).soon(date)
    }

    /// When an opening ends: `11:00 PM`, `midnight` (tonight's), `tomorrow at 1:00 AM`.
    public static func until(_ closesAt: Date, zone: LocalTimeZone, now: Date) -> String {
        let day = zone.day(of: closesAt)
        if zone.start(of: day) == closesAt, day == zone.day(of: now).adding(days: 1) { return "midnight" }
        return CivilLabels(zone: zone, now: now).soon(closesAt)
    }

    /// `closes in 25 min` within an hour of closing, else `nil`.
    public static func closingSoon(_ state: OpeningState, now: Date) -> String? {
        guard case .open(let closesAt?) = state else { return nil }
        let seconds = closesAt.timeIntervalSince(now)
        guard seconds <= 3600, seconds > 0 else { return nil }
        return "closes in \(Int((seconds / 60).rounded(.up))) min"
    }

    /// `open until 11:00 PM`, `open, closes in 25 min`, `open`, `closed · opens 6:00 AM`, `closed`,
    /// `hours unknown`.
    public static func summary(_ state: OpeningState, zone: LocalTimeZone, now: Date) -> String {
        switch state {
        case .open(let closesAt):
            if let soon = closingSoon(state, now: now) { return "open, " + soon }
            guard let closesAt else { return "open" }
            return "open until " + until(closesAt, zone: zone, now: now)
        case .closed(let opensAt):
            return "closed" + (opensAt.map { " · " + opens($0, zone: zone, now: now) } ?? "")
        case .unknown:
            return "hours unknown"
        }
    }
}

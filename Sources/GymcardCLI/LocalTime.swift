import CivilTime
import FoundationEssentials

/// 24-hour wall-clock times in a given zone, without Foundation's formatters (not in
/// FoundationEssentials): the zone is always passed, never the process's `TZ` assumed.
enum LocalTime {
    /// `15:04:05` in `zone`.
    static func clock(_ date: Date, zone: LocalTimeZone) -> String {
        let (hour, minute) = zone.clock(of: date)
        let second = Int(date.timeIntervalSince1970.rounded(.down)) % 60
        return "\(two(hour)):\(two(minute)):\(two((second + 60) % 60))"
    }

    /// `2026-11-24 15:04` in `zone` (the person's own by default: a card's dates).
    static func dateAndClock(_ date: Date, zone: LocalTimeZone = .system) -> String {
        let (year, month, day) = zone.day(of: date).date
        let (hour, minute) = zone.clock(of: date)
        return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute))"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

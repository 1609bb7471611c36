import CivilTime
import Foundation

extension LocalTimeZone {
    /// US Eastern time by the rules in force since 2007 (daylight time from the second Sunday of March,
    /// 2:00, to the first Sunday of November, 2:00), computed here so that the test process need not
    /// change its own `TZ`. gymcard itself uses tzdata's America/New_York.
    public static let usEastern = LocalTimeZone { date in
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let year = LocalDay(number: (seconds - 5 * 3600) / 86_400).date.year
        func sunday(month: Int, nth: Int) -> LocalDay {
            let first = LocalDay(year: year, month: month, day: 1)
            return first.adding(days: (7 - first.weekday) % 7 + 7 * (nth - 1))
        }
        // 2:00 local standard time (7:00 UTC) in March; 2:00 local daylight time (6:00 UTC) in November.
        let start = sunday(month: 3, nth: 2).number * 86_400 + 7 * 3600
        let end = sunday(month: 11, nth: 1).number * 86_400 + 6 * 3600
        return seconds >= start && seconds < end ? -4 * 3600 : -5 * 3600
    }
}

import CivilTime
import FoundationEssentials

/// An iCalendar `RRULE` (RFC 5545 §3.3.10) of the kinds gymcard expands: `FREQ=DAILY` or `FREQ=WEEKLY`,
/// with `INTERVAL`, `COUNT`, `UNTIL` and (weekly) `BYDAY` of plain weekdays, plus the event's `EXDATE`s.
///
/// Other rules (`MONTHLY`, `YEARLY`, `BYSETPOS`, `BYMONTHDAY`, ordinal `BYDAY` such as `1MO`, `RDATE`)
/// are not read: such an event is listed once, on its first date, as before.
public struct EventRecurrence: Sendable, Equatable, Codable {
    /// How often the rule repeats.
    public enum Frequency: String, Sendable, Codable {
        /// Every `interval` days.
        case daily
        /// Every `interval` weeks, on `weekdays`.
        case weekly
    }

    /// Daily or weekly.
    public var frequency: Frequency
    /// Every how many days or weeks (at least 1).
    public var interval: Int
    /// `BYDAY`: 0 is Sunday … 6 Saturday; empty: the first occurrence's weekday (or every day, daily).
    public var weekdays: [Int]
    /// `COUNT`: how many occurrences there are in all (those removed by `EXDATE` included, as RFC 5545
    /// says), or `nil`.
    public var count: Int?
    /// `UNTIL`: no occurrence starts after it, or `nil`.
    public var until: Date?
    /// `EXDATE`s, and the starts of occurrences the calendar gives as events of their own
    /// (`RECURRENCE-ID`): no occurrence is listed at these moments.
    public var exceptions: [Date]
    /// The IANA zone `DTSTART` was given in: occurrences keep its wall-clock time across daylight saving
    /// time. `nil`: UTC, or a floating time (the zone the events are shown in).
    public var timeZone: String?

    /// Creates a rule.
    public init(
        frequency: Frequency, interval: Int = 1, weekdays: [Int] = [], count: Int? = nil, until: Date? = nil,
        exceptions: [Date] = [], timeZone: String? = nil
    ) {
        self.frequency = frequency
        self.interval = max(1, interval)
        self.weekdays = weekdays
        self.count = count
        self.until = until
        self.exceptions = exceptions
        self.timeZone = timeZone
    }

    /// At most this many days are stepped through from the first occurrence (about 55 years of a daily
    /// rule): a rule without `COUNT` or `UNTIL` ends at the window anyway, and this bounds one that
    /// started long ago.
    static let maximumDaysScanned = 20_000

    /// The occurrences of `event` (its first one included) that have not ended at `now` and start
    /// before `horizon`, each an event of its own whose identity is the event's and its start. Times keep
    /// their wall clock in `zone`, the rule's zone (or the one the events are shown in).
    public func occurrences(of event: Event, zone: LocalTimeZone, now: Date, horizon: Date) -> [Event] {
        let duration = event.end.timeIntervalSince(event.start)
        let firstDay = zone.day(of: event.start)
        let localStart =
            Int(event.start.timeIntervalSince1970.rounded(.down)) + zone.offsetSeconds(event.start)
        let secondOfDay = ((localStart % 86_400) + 86_400) % 86_400
        let days: [Int]  // the weekdays, Monday first (RFC 5545's default WKST)
        switch frequency {
        case .daily: days = weekdays.isEmpty ? Array(0...6) : weekdays
        case .weekly: days = weekdays.isEmpty ? [firstDay.weekday] : weekdays
        }
        let offsetsFromMonday = Set(days.map { ($0 + 6) % 7 }).sorted()
        let firstMonday = firstDay.adding(days: -((firstDay.weekday + 6) % 7))
        var listed: [Event] = []
        var generated = 0
        var day = firstDay
        while day.number - firstDay.number <= Self.maximumDaysScanned {
            let weeksIn = (day.number - firstMonday.number) / 7
            let inPeriod: Bool
            switch frequency {
            case .daily: inPeriod = (day.number - firstDay.number) % interval == 0
            case .weekly: inPeriod = weeksIn % interval == 0
            }
            if inPeriod, offsetsFromMonday.contains((day.weekday + 6) % 7) {
                let start = zone.date(of: day, secondOfDay: secondOfDay)
                if let until, start > until { break }
                if start >= horizon { break }
                generated += 1
                if let count, generated > count { break }
                let excluded = exceptions.contains { abs($0.timeIntervalSince(start)) < 1 }
                if !excluded, start.addingTimeInterval(duration) > now {
                    var occurrence = event
                    occurrence.id = event.id + "/" + String(Int(start.timeIntervalSince1970))
                    occurrence.start = start
                    occurrence.end = start.addingTimeInterval(duration)
                    occurrence.recurrence = nil
                    listed.append(occurrence)
                }
            }
            // Whole weeks outside the interval are skipped rather than stepped through day by day.
            if frequency == .weekly, weeksIn % interval != 0 {
                day = firstMonday.adding(days: (weeksIn + interval - weeksIn % interval) * 7)
            } else {
                day = day.adding(days: 1)
            }
        }
        return listed
    }
}

import CivilTime
import FoundationEssentials

/// The events worth listing, in order and by local day.
public enum EventAgenda {
    /// One local day's events.
    public struct Day: Sendable, Equatable {
        /// The day.
        public var day: LocalDay
        /// Its events, by start.
        public var events: [Event]
    }

    /// Events that have not ended and start within `days` days of `now`, sorted by start (then end,
    /// then title, so the order is stable).
    public static func upcoming(_ events: [Event], now: Date, days: Int) -> [Event] {
        let horizon = now.addingTimeInterval(Double(days) * 86_400)
        return events.filter { $0.end > now && $0.start < horizon }.sorted {
            ($0.start, $0.end, $0.title) < ($1.start, $1.end, $1.title)
        }
    }

    /// Events grouped by the local day they start on; one that already started is listed under today.
    public static func byDay(_ events: [Event], now: Date, zone: LocalTimeZone) -> [Day] {
        let today = zone.day(of: now)
        var days: [Day] = []
        for event in events {
            let day = max(zone.day(of: event.start), today)
            if days.last?.day == day {
                days[days.count - 1].events.append(event)
            } else {
                days.append(Day(day: day, events: [event]))
            }
        }
        return days
    }
}

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
    /// then title, so the order is stable). A repeating event is listed on each of its occurrences in
    /// that window: its times keep their wall clock in the zone `zones` gives for its rule's zone, else
    /// in `localZone` (the zone the events are shown in). Only events `filter` matches are listed.
    public static func upcoming(
        _ events: [Event], now: Date, days: Int, matching filter: EventFilter = EventFilter(),
        zones: (String) -> LocalTimeZone? = { _ in nil }, localZone: LocalTimeZone = .system
    ) -> [Event] {
        let horizon = now.addingTimeInterval(Double(days) * 86_400)
        let listed = events.filter(filter.matches).flatMap { event -> [Event] in
            guard let recurrence = event.recurrence else { return [event] }
            let zone =
                recurrence.timeZone.map { $0 == "UTC" ? .fixed(hours: 0) : zones($0) ?? localZone }
                ?? localZone
            return recurrence.occurrences(of: event, zone: zone, now: now, horizon: horizon)
        }
        return listed.filter { $0.end > now && $0.start < horizon }.sorted {
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

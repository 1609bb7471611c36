import Events
import Foundation

/// The `RRULE`s gymcard expands (daily and weekly), read into an ``EventRecurrence``.
extension ICalendarReader {
    /// A daily or weekly `RRULE` value, or `nil` for one gymcard does not expand (then the event is
    /// listed once).
    static func recurrence(
        _ rule: String, start: ContentLine, localZone: TimeZone, exceptions: [Date]
    ) -> EventRecurrence? {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            parts[pair[0].uppercased()] = String(pair[1]).uppercased()
        }
        let frequency: EventRecurrence.Frequency
        switch parts["FREQ"] {
        case "DAILY": frequency = .daily
        case "WEEKLY": frequency = .weekly
        default: return nil
        }
        guard Set(parts.keys).isSubset(of: ["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"]) else {
            return nil
        }
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        var weekdays: [Int] = []
        for day in (parts["BYDAY"] ?? "").split(separator: ",") {
            guard let weekday = names.firstIndex(of: String(day)) else { return nil }  // `1MO` and the like
            weekdays.append(weekday)
        }
        let interval = parts["INTERVAL"].map { Int($0) ?? 0 } ?? 1
        let count = parts["COUNT"].map { Int($0) ?? 0 }
        guard interval >= 1, (count ?? 1) >= 1 else { return nil }
        var until: Date?
        if let text = parts["UNTIL"] {
            var line = start
            line.value = text
            if text.hasSuffix("Z") { line.parameters["TZID"] = nil }
            guard let moment = moment(line, localZone: localZone) else { return nil }
            // A date is the whole of that day.
            until = moment.isDay ? moment.date.addingTimeInterval(86_399) : moment.date
        }
        let zoneName: String?
        if start.value.uppercased().hasSuffix("Z") {
            zoneName = "UTC"
        } else {
            zoneName = start.parameters["TZID"].flatMap { timeZone(named: $0)?.identifier }
        }
        return EventRecurrence(
            frequency: frequency, interval: interval, weekdays: weekdays, count: count, until: until,
            exceptions: exceptions, timeZone: zoneName)
    }
}

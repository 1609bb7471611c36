import FoundationEssentials

/// How days and clock times read to a person, relative to now, in one zone: "Today", "Tomorrow", the
/// weekday within a week, else "Dec 5"; "4:00 PM"; "Sat, Nov 21". One place for `events`, `best`,
/// `collect --status` and the rest, without Foundation's formatters (not in FoundationEssentials).
public struct CivilLabels: Sendable {
    /// The zone that decides days and clock times.
    public var zone: LocalTimeZone
    /// The moment "today" and "tomorrow" refer to.
    public var now: Date

    /// Creates labels for a zone and a moment.
    public init(zone: LocalTimeZone, now: Date) {
        self.zone = zone
        self.now = now
    }

    /// Weekday names, Sunday first (as ``LocalDay/weekday`` counts).
    public static let weekdays = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]
    /// Month abbreviations, January first.
    public static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// "4:00 PM".
    public func clock(_ date: Date) -> String {
        let (hour, minute) = zone.clock(of: date)
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "AM" : "PM")"
    }

    /// "Sat, Nov 21" (with the year when it is not this year's).
    public func heading(_ day: LocalDay) -> String {
        let date = day.date
        var text = "\(Self.weekdays[day.weekday].prefix(3)), \(Self.months[date.month - 1]) \(date.day)"
        if date.year != zone.day(of: now).date.year { text += ", \(date.year)" }
        return text
    }

    /// "Today", "Tomorrow", the weekday within a week, else "Dec 5" (with the year when not this year's).
    public func dayName(_ day: LocalDay) -> String {
        let ahead = day.number - zone.day(of: now).number
        switch ahead {
        case 0: return "Today"
        case 1: return "Tomorrow"
        case 2...6: return Self.weekdays[day.weekday]
        default:
            let date = day.date
            let short = "\(Self.months[date.month - 1]) \(date.day)"
            return date.year == zone.day(of: now).date.year ? short : "\(short), \(date.year)"
        }
    }

    /// "Today at 4:00 PM", "Tomorrow at 6:30 AM", …
    public func moment(_ date: Date) -> String { "\(dayName(zone.day(of: date))) at \(clock(date))" }

    /// For the middle of a sentence: "6:00 AM" today, "tomorrow at 6:00 AM", "Monday at 6:00 AM",
    /// "Dec 5 at 6:00 AM".
    public func soon(_ date: Date) -> String {
        let day = dayName(zone.day(of: date))
        switch day {
        case "Today": return clock(date)
        case "Tomorrow": return "tomorrow at \(clock(date))"
        default: return "\(day) at \(clock(date))"
        }
    }
}

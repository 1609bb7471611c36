import CivilTime
import Configuration
import FoundationEssentials
import TextSearch

/// Opening times on the local clock: `06:00-23:00`; a close at or before the open is after midnight.
public struct ClockRange: Sendable, Equatable {
    /// Seconds after midnight when it opens.
    public var opens: Int
    /// Seconds after midnight when it closes (up to 86 400; at or before `opens`: the next day).
    public var closes: Int

    /// Reads `06:00-23:00` (also `6:00 AM - 11:00 PM`, `18:00-02:00`, `00:00-24:00`).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let opens = ClockTime(String(parts[0])),
            let closes = ClockTime(String(parts[1])),
            opens.secondOfDay < 86_400, opens != closes
        else { return nil }
        self.opens = opens.secondOfDay
        self.closes = closes.secondOfDay
    }

    /// The interval this range makes on `day`.
    func interval(on day: LocalDay, zone: LocalTimeZone, label: String?) -> OpeningInterval {
        let closeDay = closes <= opens ? day.adding(days: 1) : day
        return OpeningInterval(
            opens: zone.date(of: day, secondOfDay: opens),
            closes: zone.date(of: closeDay, secondOfDay: closes),
            label: label)
    }
}

/// Hours a person writes in the config file: the same hours each weekday, and dated exceptions
/// (holidays, breaks) that replace a day's hours. A weekday the schedule leaves out is unknown, never
/// open or closed by guess: write `"closed"` for a closed day.
public struct WeeklySchedule: Sendable, Equatable {
    /// Ranges per weekday, 0 = Sunday … 6 = Saturday (as ``LocalDay/weekday``); `nil` when not given,
    /// empty when closed.
    public var weekdays: [[ClockRange]?]
    /// Days whose hours differ: their ranges (empty when closed).
    public var exceptions: [LocalDay: [ClockRange]]

    /// Creates a schedule.
    public init(
        weekdays: [[ClockRange]?] = Array(repeating: nil, count: 7),
        exceptions: [LocalDay: [ClockRange]] = [:]
    ) {
        self.weekdays = weekdays
        self.exceptions = exceptions
    }

    /// Whether it says anything at all.
    public var isEmpty: Bool { weekdays.allSatisfy { $0 == nil } && exceptions.isEmpty }

    /// The hours on `day`: an exception when there is one, else the weekday's, else unknown.
    public func hours(on day: LocalDay, zone: LocalTimeZone) -> DayHours? {
        if let ranges = exceptions[day] {
            return .known(ranges.map { $0.interval(on: day, zone: zone, label: nil) })
        }
        guard let ranges = weekdays[day.weekday] else { return nil }
        return .known(ranges.map { $0.interval(on: day, zone: zone, label: nil) })
    }

    /// Weekday names as the config file writes them, Sunday first.
    static let weekdayKeys = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// Reads the config file's `weekly` and `exceptions` objects; `key` names them in messages.
    static func parse(weekly: [String: DayText]?, exceptions: [String: DayText]?, key: String)
        throws(ConfigProblem)
        -> WeeklySchedule
    {
        var schedule = WeeklySchedule()
        for (name, text) in weekly ?? [:] {
            let lowered = name.lowercased()
            guard
                let index = weekdayKeys.firstIndex(of: lowered)
                    ?? CivilLabels.weekdays.firstIndex(where: { $0.lowercased() == lowered })
            else {
                throw ConfigProblem(
                    "\(key).weekly.\(name) is not a weekday; use mon, tue, wed, thu, fri, sat or sun")
            }
            schedule.weekdays[index] = try text.ranges(key: "\(key).weekly.\(name)")
        }
        for (date, text) in exceptions ?? [:] {
            guard let day = RecSportsHoursResponse.day(from: date), date.count == 10 else {
                throw ConfigProblem("\(key).exceptions: \(date) is not a date such as 2026-11-26")
            }
            schedule.exceptions[day] = try text.ranges(key: "\(key).exceptions.\(date)")
        }
        return schedule
    }
}

/// A day's hours in the config file: `"closed"`, `"06:00-23:00"`, or a list of ranges.
enum DayText: Decodable, Equatable {
    case one(String)
    case several([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .one(text)
        } else {
            self = .several(try container.decode([String].self))
        }
    }

    /// The ranges it names (none: closed).
    func ranges(key: String) throws(ConfigProblem) -> [ClockRange] {
        let texts: [String]
        switch self {
        case .one(let text): texts = [text]
        case .several(let list): texts = list
        }
        if texts.count == 1, texts[0].trimmed.lowercased() == "closed" { return [] }
        var ranges: [ClockRange] = []
        for text in texts {
            guard let range = ClockRange(text) else {
                throw ConfigProblem(
                    "\(key): \"\(text)\" is not opening hours such as \"06:00-23:00\" or \"closed\"")
            }
            ranges.append(range)
        }
        return ranges
    }
}

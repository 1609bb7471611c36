import CivilTime
import FoundationEssentials

/// A stretch of time a facility is open, as its source gives it.
public struct OpeningInterval: Sendable, Equatable, Codable {
    /// When it opens.
    public var opens: Date
    /// When it closes (after `opens`; past midnight when the source says so).
    public var closes: Date
    /// The source's name for it ("Regular Hours", "Thanksgiving Break"), when it gives one.
    public var label: String?

    /// Creates an interval.
    public init(opens: Date, closes: Date, label: String? = nil) {
        self.opens = opens
        self.closes = closes
        self.label = label
    }
}

/// What is known about a facility's hours on one local day: the intervals that begin that day (an
/// interval may run past midnight), or nothing at all. Known with no interval means closed all day.
public enum DayHours: Sendable, Equatable {
    /// The source answered for the day: these intervals, none when closed all day; `note` is the source's
    /// word for a closure ("Closed for Thanksgiving").
    case known([OpeningInterval], note: String? = nil)
    /// No source, or the source could not say (a failed fetch with nothing cached, equal open and close
    /// times, a day the schedule leaves out).
    case unknown

    /// Whether the day is known.
    public var isKnown: Bool {
        if case .known = self { return true }
        return false
    }

    /// The day's intervals; empty when closed or unknown.
    public var intervals: [OpeningInterval] {
        if case .known(let intervals, _) = self { return intervals }
        return []
    }
}

/// Open, closed or unknown at a moment, tri-state: unknown is never treated as open.
public enum OpeningState: Sendable, Equatable {
    /// Open; `closesAt` is when the current opening ends (`nil`: not before the known days end).
    case open(closesAt: Date?)
    /// Closed; `opensAt` is the next opening (`nil`: none within the known days).
    case closed(opensAt: Date?)
    /// Nothing known.
    case unknown

    /// `true` open, `false` closed, `nil` unknown: the JSON field `open`.
    public var isOpen: Bool? {
        switch self {
        case .open: return true
        case .closed: return false
        case .unknown: return nil
        }
    }

    /// Whether the facility is known to be closed.
    public var isClosed: Bool { isOpen == false }

    /// When a closed facility opens next, when known.
    public var opensAt: Date? {
        if case .closed(let opensAt) = self { return opensAt }
        return nil
    }

    /// When an open facility closes, when known.
    public var closesAt: Date? {
        if case .open(let closesAt) = self { return closesAt }
        return nil
    }
}

/// One facility's hours over a run of local days, and what they mean at a moment.
public struct FacilityHours: Sendable, Equatable {
    /// Each day's hours; a day missing from the dictionary is unknown.
    public var days: [LocalDay: DayHours]

    /// Creates hours from days.
    public init(days: [LocalDay: DayHours] = [:]) { self.days = days }

    /// Hours for which nothing is known.
    public static let unknown = FacilityHours()

    /// A day's hours (unknown when not loaded).
    public subscript(day: LocalDay) -> DayHours { days[day] ?? .unknown }

    /// Every known interval, merged where one ends as the next begins (an all-day schedule becomes one
    /// long opening), in time order.
    public var openings: [OpeningInterval] {
        let all = days.values.flatMap(\.intervals).sorted { $0.opens < $1.opens }
        var merged: [OpeningInterval] = []
        for interval in all {
            if let last = merged.last, interval.opens <= last.closes {
                if interval.closes > last.closes { merged[merged.count - 1].closes = interval.closes }
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// Open, closed or unknown at `date`. Closed is said only when the day of `date` and the day before
    /// (whose opening may run past midnight) are both known; the next opening is looked for day by day
    /// until a day is unknown.
    public func state(at date: Date, zone: LocalTimeZone) -> OpeningState {
        let openings = self.openings
        if let current = openings.first(where: { $0.opens <= date && date < $0.closes }) {
            // Open until midnight with the next day unknown (a 24-hour schedule at the edge of what was
            // loaded): it may well go on, so the end is not known.
            let closingDay = zone.day(of: current.closes)
            let mayGoOn = zone.start(of: closingDay) == current.closes && !self[closingDay].isKnown
            return .open(closesAt: mayGoOn ? nil : current.closes)
        }
        let today = zone.day(of: date)
        guard self[today].isKnown, self[today.adding(days: -1)].isKnown else { return .unknown }
        var day = today
        while self[day].isKnown {
            if let next = self[day].intervals.filter({ $0.opens > date }).map(\.opens).min() {
                return .closed(opensAt: next)
            }
            day = day.adding(days: 1)
        }
        return .closed(opensAt: nil)
    }

    /// Whether the facility is known to be open for the whole of `from..<to`.
    public func isOpen(from start: Date, to end: Date) -> Bool {
        openings.contains { $0.opens <= start && end <= $0.closes }
    }
}

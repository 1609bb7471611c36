import FoundationEssentials
import Glibc

/// A time zone as an offset from UTC at each moment: the user's own (``system``, libc), a facility's
/// (read from tzdata's file by ``TZifZone``), or a fixed one.
///
/// FoundationEssentials has no named time zones (they come with ICU in FoundationInternationalization,
/// which would cost every gymcard process its start-up time), so local days and clock times are worked
/// out from an offset function, with the civil-date arithmetic done here.
public struct LocalTimeZone: Sendable {
    /// Seconds east of UTC in force at a moment.
    public var offsetSeconds: @Sendable (Date) -> Int

    /// Creates a zone from its offset function.
    public init(offsetSeconds: @escaping @Sendable (Date) -> Int) {
        self.offsetSeconds = offsetSeconds
    }

    /// The user's own zone: `TZ`, else /etc/localtime, through libc (gymcard never changes `TZ`).
    public static let system = LocalTimeZone { date in
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// A zone read from tzdata's file (``TZifZone``).
    public init(_ zone: TZifZone) {
        offsetSeconds = { date in zone.offset(atUnixTime: Int64(date.timeIntervalSince1970.rounded(.down))) }
    }

    /// A zone with one fixed offset (tests, UTC).
    public static func fixed(hours: Int) -> LocalTimeZone {
        LocalTimeZone { _ in hours * 3600 }
    }

    /// The local day a moment falls on.
    public func day(of date: Date) -> LocalDay {
        LocalDay(number: Self.floorDivide(localSeconds(date), 86_400))
    }

    /// The moment a local day begins (its first second; midnight unless a clock change skips it).
    public func start(of day: LocalDay) -> Date { date(of: day, secondOfDay: 0) }

    /// The moment the local clock reads `secondOfDay` seconds after midnight on `day`.
    public func date(of day: LocalDay, secondOfDay: Int) -> Date {
        let local = day.number * 86_400 + secondOfDay
        // The offset at the moment itself: guess with the offset at the local time read as UTC, then
        // correct once (enough for any zone's daylight-saving rules).
        var guess = local - offsetSeconds(Date(timeIntervalSince1970: Double(local)))
        guess = local - offsetSeconds(Date(timeIntervalSince1970: Double(guess)))
        return Date(timeIntervalSince1970: Double(guess))
    }

    /// Hours (0–23) and minutes on the local clock.
    public func clock(of date: Date) -> (hour: Int, minute: Int) {
        let secondOfDay = localSeconds(date) - Self.floorDivide(localSeconds(date), 86_400) * 86_400
        return (secondOfDay / 3600, secondOfDay % 3600 / 60)
    }

    private func localSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds(date)
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

/// A calendar day in the local time zone, counted from 1970-01-01.
public struct LocalDay: Sendable, Hashable, Comparable {
    /// Days since 1970-01-01 (negative before).
    public var number: Int

    /// Creates a day from its number.
    public init(number: Int) { self.number = number }

    /// The day of a date in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    public init(year: Int, month: Int, day: Int) {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    /// The day a number of days later.
    public func adding(days: Int) -> LocalDay { LocalDay(number: number + days) }

    /// 0 Sunday … 6 Saturday.
    public var weekday: Int { ((number % 7) + 7 + 4) % 7 }

    /// Year, month (1–12) and day of month, by the proleptic Gregorian calendar.
    public var date: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Earlier days sort first.
    public static func < (left: LocalDay, right: LocalDay) -> Bool { left.number < right.number }
}

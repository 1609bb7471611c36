import CivilTime
import FoundationEssentials
import Glibc
import GymcardCore
import History
import Occupancy
import OpeningHours
import Trends

/// A made-up gym for `--demo` of `trends`, `best`, `hours` and `wait`, so that a new user, who has no
/// history yet, sees what each is for: four weeks of 5-minute readings shaped like a campus gym's (quiet
/// mornings, a lunchtime bump, packed weekday evenings, calm weekends) and opening hours like a campus
/// recreation centre's. The same moment always gives the same reading (no randomness: tests can read it).
/// Nothing is fetched, stored or recorded.
public enum DemoGym {
    /// The first line of every demo's text.
    public static let banner = "DEMO: made-up readings and opening hours shaped like a campus gym, not yours"

    /// The days of history the demo has: a new user's first few weeks of collecting.
    public static let historyDays = 28

    /// Weekly hours like a campus recreation centre's, Sunday first; a climbing wall opens afternoons.
    static func schedule(for facility: String) -> WeeklySchedule {
        let text =
            facility == "bouldering-wall"
            ? [
                "12:00-20:00", "16:00-22:00", "16:00-22:00", "16:00-22:00", "16:00-22:00", "14:00-20:00",
                "12:00-18:00",
            ]
            : [
                "10:00-23:00", "06:00-23:00", "06:00-23:00", "06:00-23:00", "06:00-23:00", "06:00-22:00",
                "08:00-21:00",
            ]
        return WeeklySchedule(weekdays: text.map { ClockRange($0).map { [$0] } })
    }

    /// `facility`'s demo hours on `days`.
    public static func hours(_ facility: Facility, days: [LocalDay], zone: LocalTimeZone) -> FacilityHours {
        let schedule = schedule(for: facility.key)
        return FacilityHours(
            days: Dictionary(
                uniqueKeysWithValues: days.compactMap { day in
                    schedule.hours(on: day, zone: zone).map { (day, $0) }
                }))
    }

    /// Every facility's demo hours on `days`, by key.
    public static func hours(_ facilities: [Facility], days: [LocalDay], zone: LocalTimeZone)
        -> [String: FacilityHours]
    {
        Dictionary(uniqueKeysWithValues: facilities.map { ($0.key, hours($0, days: days, zone: zone)) })
    }

    /// How full a campus gym usually is, in percent, on a weekday (0 = Monday, as ``WeeklyHeatmap``) at
    /// `hour` (local, with fractions): a sum of bumps over a floor.
    static func usualPercent(weekday: Int, hour: Double, evening: Double) -> Double {
        func bump(_ centre: Double, _ height: Double, _ width: Double) -> Double {
            height * exp(-((hour - centre) * (hour - centre)) / (2 * width * width))
        }
        switch weekday {
        case 0...3:
            let busier = [1.08, 1.0, 1.02, 0.94][weekday]
            return 8 + busier * (bump(7, 20, 0.9) + bump(12.5, 26, 1.1) + bump(evening, 66, 1.7))
        case 4: return 7 + bump(7, 16, 0.9) + bump(12.5, 24, 1.1) + bump(16, 40, 1.8)
        case 5: return 5 + bump(13.5, 42, 2.4)
        default: return 5 + bump(15, 28, 1.8) + bump(evening + 1.5, 44, 1.5)
        }
    }

    /// The percent a reading of `facility` at `date` shows: the usual, scaled by the facility and by the
    /// day (some days are busier than others), with a few points of wobble from one reading to the next.
    public static func percent(_ facility: Facility, at date: Date, zone: LocalTimeZone) -> Double {
        let day = zone.day(of: date)
        let clock = zone.clock(of: date)
        let minute = clock.hour * 60 + clock.minute
        let key = stableHash(facility.key)
        let (scale, evening): (Double, Double) =
            switch facility.key {
            case "war-memorial": (1.0, 18)
            case "mccomas": (0.85, 18.5)
            case "bouldering-wall": (1.1, 19)
            default: (0.8 + Double(key % 25) / 100, 17.5 + Double(key % 3) / 2)
            }
        let weekday = (day.weekday + 6) % 7
        let usual = usualPercent(weekday: weekday, hour: Double(minute) / 60, evening: evening)
        let dayFactor = 0.9 + 0.2 * unit(key, UInt64(bitPattern: Int64(day.number)), 0)
        let wobble = 6 * unit(key, UInt64(bitPattern: Int64(day.number)), UInt64(minute / 5 + 1)) - 3
        return min(100, max(0, usual * scale * dayFactor + wobble))
    }

    /// The reading of `facility` at `date`: people, or a percent where the campus's page gives only that.
    public static func reading(_ facility: Facility, at date: Date, zone: LocalTimeZone) -> OccupancyReading {
        let percent = percent(facility, at: date, zone: zone)
        guard facility.measure == .people else { return .percentOnly(Int(percent)) }
        return OccupancyReading(
            occupancy: Int((percent * Double(facility.capacity) / 100).rounded()), capacity: facility.capacity
        )
    }

    /// The demo history of `facility` from `start` to `end` (at most the last ``historyDays`` days): a
    /// reading every 5 minutes, marked closed outside the demo hours, as `collect` records them.
    public static func readings(_ facility: Facility, from start: Date, to end: Date, zone: LocalTimeZone)
        -> [HistoryReading]
    {
        let first = max(start, end.addingTimeInterval(-Double(historyDays) * 86_400))
        let step = 300.0
        var time = Date(timeIntervalSince1970: (first.timeIntervalSince1970 / step).rounded(.up) * step)
        let days = (zone.day(of: first).number - 1...zone.day(of: end).number).map(LocalDay.init(number:))
        let openings = hours(facility, days: days, zone: zone).openings
        var readings: [HistoryReading] = []
        while time <= end {
            let open = openings.contains { $0.opens <= time && time < $0.closes }
            let reading = reading(facility, at: time, zone: zone)
            readings.append(
                HistoryReading(
                    facility: facility.key, fetchedAt: time, occupancy: open ? reading.occupancy : 0,
                    capacity: reading.capacity, status: open ? .ok : .closed))
            time = time.addingTimeInterval(step)
        }
        return readings
    }

    /// A deterministic number in 0..<1 from the facility's hash, the day and the reading (SplitMix64).
    static func unit(_ key: UInt64, _ day: UInt64, _ index: UInt64) -> Double {
        var value = key &+ day &* 0x9E37_79B9_7F4A_7C15 &+ index &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }

    /// FNV-1a of `text` (Swift's own hash differs from one run to the next).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

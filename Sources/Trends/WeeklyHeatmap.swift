import CivilTime
import FoundationEssentials
import History

/// How full a facility usually is, by weekday and half hour, from the history (ARCHITECTURE §10, TMU's
/// method): over the window (8 weeks by default), each day's readings in a 30-minute slot are averaged
/// first, and the days are then weighted equally, so a day watched every 30 s counts no more than a day
/// sampled every 5 minutes. A day counts for a slot only with at least 3 readings in it; a slot is shown
/// only when at least 2 days count. Closed readings are left out. Weekdays and times are local to the
/// facility's time zone, so readings fall in the right slot across daylight-saving changes.
public struct WeeklyHeatmap: Sendable, Equatable {
    /// Slots per day (30 minutes each).
    public static let slotsPerDay = 48
    /// Readings a day needs in a slot to count for it.
    public static let minimumReadingsPerDay = 3
    /// Days that must count for a slot to be shown.
    public static let minimumDays = 2

    /// One weekday's half hour.
    public struct Cell: Sendable, Equatable {
        /// The mean percent full (each counting day's mean, days weighted equally), or `nil` when fewer
        /// than ``WeeklyHeatmap/minimumDays`` days count.
        public var meanPercent: Double?
        /// Days that count (at least ``WeeklyHeatmap/minimumReadingsPerDay`` readings in the slot).
        public var days: Int
        /// Readings on those days.
        public var readings: Int
        /// Readings in the slot that were taken while the facility was closed.
        public var closedReadings: Int

        /// Creates a cell.
        public init(meanPercent: Double?, days: Int, readings: Int, closedReadings: Int = 0) {
            self.meanPercent = meanPercent
            self.days = days
            self.readings = readings
            self.closedReadings = closedReadings
        }

        /// Nothing known: no day counts and nothing was closed.
        public static let empty = Cell(meanPercent: nil, days: 0, readings: 0)
    }

    /// The facility's key.
    public var facility: String
    /// `cells[weekday][slot]`, weekday 0 = Monday … 6 = Sunday, slot 0 = 00:00–00:30.
    public var cells: [[Cell]]
    /// Readings in the window (closed ones included).
    public var readingCount: Int
    /// Days in the window with any reading.
    public var dayCount: Int

    /// The weekday names, Monday first.
    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// Builds the heatmap from a facility's readings (those in the window; the caller chooses it).
    public init(facility: String, readings: [HistoryReading], zone: LocalTimeZone) {
        self.facility = facility
        struct Bucket {
            var sum = 0.0
            var count = 0
        }
        // (local day number, slot) → that day's readings in the slot.
        var buckets: [Int: Bucket] = [:]
        var closed = [[Int]](repeating: [Int](repeating: 0, count: Self.slotsPerDay), count: 7)
        var days = Set<Int>()
        for reading in readings {
            let position = Self.position(of: reading.fetchedAt, zone: zone)
            days.insert(position.day.number)
            guard reading.status == .ok else {
                closed[position.weekday][position.slot] += 1
                continue
            }
            buckets[position.day.number * Self.slotsPerDay + position.slot, default: Bucket()].sum +=
                reading.percent
            buckets[position.day.number * Self.slotsPerDay + position.slot, default: Bucket()].count += 1
        }
        var sums = [[(mean: Double, days: Int, readings: Int)]](
            repeating: [(mean: Double, days: Int, readings: Int)](
                repeating: (0, 0, 0), count: Self.slotsPerDay), count: 7)
        for (key, bucket) in buckets where bucket.count >= Self.minimumReadingsPerDay {
            let day = LocalDay(number: Self.floorDivide(key, Self.slotsPerDay))
            let slot = key - day.number * Self.slotsPerDay
            let weekday = Self.mondayFirst(day.weekday)
            sums[weekday][slot].mean += bucket.sum / Double(bucket.count)
            sums[weekday][slot].days += 1
            sums[weekday][slot].readings += bucket.count
        }
        cells = (0..<7).map { weekday in
            (0..<Self.slotsPerDay).map { slot in
                let sum = sums[weekday][slot]
                return Cell(
                    meanPercent: sum.days >= Self.minimumDays ? sum.mean / Double(sum.days) : nil,
                    days: sum.days,
                    readings: sum.readings, closedReadings: closed[weekday][slot])
            }
        }
        readingCount = readings.count
        dayCount = days.count
    }

    /// The cell a moment falls in.
    public func cell(at date: Date, zone: LocalTimeZone) -> Cell {
        let position = Self.position(of: date, zone: zone)
        return cells[position.weekday][position.slot]
    }

    /// Whether any slot has a value.
    public var hasAnyValue: Bool { cells.contains { $0.contains { $0.meanPercent != nil } } }

    /// Where a moment falls: its local day, weekday (0 = Monday) and slot.
    public static func position(of date: Date, zone: LocalTimeZone) -> (
        day: LocalDay, weekday: Int, slot: Int
    ) {
        let day = zone.day(of: date)
        let clock = zone.clock(of: date)
        return (day, mondayFirst(day.weekday), (clock.hour * 60 + clock.minute) / 30)
    }

    /// LocalDay counts 0 = Sunday; the heatmap starts on Monday.
    static func mondayFirst(_ sundayFirst: Int) -> Int { (sundayFirst + 6) % 7 }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// `09:30` for a slot.
    public static func slotLabel(_ slot: Int) -> String {
        let minutes = slot * 30
        return (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):" + (minutes % 60 == 0 ? "00" : "30")
    }
}

extension WeeklyHeatmap {
    /// The intervals of the history that decide the cell `now` falls in: the same half hour on the same
    /// weekday, this week and each of the `weeks` before. Status bars ask for this one cell every few
    /// seconds; reading these few intervals instead of the whole window keeps them fast.
    public static func intervalsForCell(at now: Date, zone: LocalTimeZone, weeks: Int) -> [(
        from: Date, to: Date
    )] {
        let position = position(of: now, zone: zone)
        let windowStart = now.addingTimeInterval(-Double(weeks) * 7 * 86_400)
        return (0...weeks).compactMap { week in
            let day = position.day.adding(days: -7 * week)
            let from = max(windowStart, zone.date(of: day, secondOfDay: position.slot * 1800))
            let to = min(now, zone.date(of: day, secondOfDay: (position.slot + 1) * 1800))
            return from < to ? (from, to) : nil
        }
    }
}

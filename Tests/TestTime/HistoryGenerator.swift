import CivilTime
import Foundation
import History
import TestSupport

/// A seeded occupancy history with a known weekly pattern, for the trends and best-time tests and the
/// benchmark: a reading every 5 minutes per facility, a few percent of noise, random missing samples,
/// and whole failed days (attempts recorded as failed, no readings: gaps, never zeros).
public struct HistoryGenerator {
    /// The pattern, by local weekday (0 = Monday) and minute of the day: night 3 %, morning 35 %, late
    /// morning 25 %, lunch 45 %, a quiet afternoon 8 % (13:30–15:30), the evening rush 70 % on weekdays
    /// and 50 % at weekends, late evening 20 %.
    public static func percent(weekday: Int, minute: Int) -> Double {
        switch minute {
        case ..<360: return 3
        case ..<540: return 35
        case ..<720: return 25
        case ..<810: return 45
        case ..<930: return 8
        case ..<1200: return weekday < 5 ? 70 : 50
        default: return 20
        }
    }

    /// The facilities written: key and capacity.
    public var facilities: [(key: String, capacity: Int)]
    /// The seed.
    public var seed: UInt64
    /// Share of samples missing at random.
    public var missingShare: Double
    /// Days (counted back from the end) with every attempt failed.
    public var failedDaysBack: [Int]

    /// Creates a generator.
    public init(
        facilities: [(key: String, capacity: Int)] = [("mccomas", 600), ("war-memorial", 1200)],
        seed: UInt64 = 12,
        missingShare: Double = 0.08, failedDaysBack: [Int] = [9]
    ) {
        self.facilities = facilities
        self.seed = seed
        self.missingShare = missingShare
        self.failedDaysBack = failedDaysBack
    }

    /// Attempts and readings every 5 minutes from `start` to `end`.
    public func samples(from start: Date, to end: Date, zone: LocalTimeZone = .usEastern)
        -> [(attempt: HistoryAttempt, readings: [HistoryReading])]
    {
        var generator = SeededGenerator(seed: seed)
        let lastDay = zone.day(of: end)
        let failedDays = Set(failedDaysBack.map { lastDay.adding(days: -$0).number })
        var samples: [(attempt: HistoryAttempt, readings: [HistoryReading])] = []
        var time = (start.timeIntervalSince1970 / 300).rounded(.up) * 300
        while time < end.timeIntervalSince1970 {
            let date = Date(timeIntervalSince1970: time)
            time += 300
            let day = zone.day(of: date)
            if failedDays.contains(day.number) {
                samples.append(
                    (HistoryAttempt(at: date, status: .failed, error: "127.0.0.1 refused the connection"), [])
                )
                continue
            }
            guard Double.random(in: 0..<1, using: &generator) >= missingShare else { continue }
            let clock = zone.clock(of: date)
            let weekday = (day.weekday + 6) % 7
            let percent = Self.percent(weekday: weekday, minute: clock.hour * 60 + clock.minute)
            let readings = facilities.map { facility in
                let noisy = max(0, percent + Double.random(in: -3...3, using: &generator))
                return HistoryReading(
                    facility: facility.key, facilityID: "id-" + facility.key, fetchedAt: date,
                    occupancy: Int((noisy * Double(facility.capacity) / 100).rounded()),
                    capacity: facility.capacity)
            }
            samples.append((HistoryAttempt(at: date, status: .success), readings))
        }
        return samples
    }

    /// Writes the samples into a history file.
    public func write(to path: String, from start: Date, to end: Date) throws {
        try HistoryStore(path: path).recordAll(samples(from: start, to: end))
    }
}

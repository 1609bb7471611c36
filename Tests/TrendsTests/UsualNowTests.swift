import CivilTime
import Foundation
import History
import TestSupport
import TestTime
import Testing

@testable import Trends

/// Saturday 2026-02-28 12:00 in New York (EST, as eight weeks before: no clock change inside the window,
/// so the window's start cuts through the oldest Saturday's 12:00–12:30).
private let saturdayNoon = Date(timeIntervalSince1970: 1_772_298_000)
private let windowSeconds = 56.0 * 86_400

/// What `trends` says for the half hour `now` falls in: the cell of the heatmap of the whole window.
private func trendsCell(_ store: HistoryStore, facility: String, at now: Date, zone: LocalTimeZone) throws
    -> Double?
{
    let readings = try store.readings(
        facility: facility, from: now.addingTimeInterval(-windowSeconds), to: now)
    return WeeklyHeatmap(facility: facility, readings: readings, zone: zone).cell(at: now, zone: zone)
        .meanPercent
}

private func agree(_ left: Double?, _ right: Double?) -> Bool {
    switch (left, right) {
    case (nil, nil): return true
    case (let left?, let right?): return abs(left - right) < 1e-9
    default: return false
    }
}

private func reading(_ facility: String, at date: Date, occupancy: Int, capacity: Int = 600) -> HistoryReading
{
    HistoryReading(facility: facility, fetchedAt: date, occupancy: occupancy, capacity: capacity)
}

@Suite("The usual percent now, for status bars")
struct UsualNowTests {
    let zone = LocalTimeZone.usEastern

    @Test(
        "equals trends's cell as the window slides over ten weeks of history, and after an import",
        arguments: [afterSpringChange, afterAutumnChange])
    func equalsTrends(end: Date) throws {
        let directory = try TemporaryDirectory()
        let store = try HistoryStore(path: directory.path + "/history.sqlite3")
        try store.recordAll(HistoryGenerator().samples(from: end.addingTimeInterval(-70 * 86_400), to: end))
        func check(_ now: Date) throws {
            let usual = try UsualNow.compute(
                from: store, facilities: ["mccomas", "war-memorial", "absent"], at: now, zone: zone, weeks: 8)
            for facility in ["mccomas", "war-memorial", "absent"] {
                let expected = try trendsCell(store, facility: facility, at: now, zone: zone)
                #expect(agree(usual.percents[facility], expected), "\(facility) at \(now)")
            }
        }
        // Every 11 h 13 min across two weeks back and four days ahead of the last reading: the window slides
        // over the data, across a clock change, and off its end.
        var checked = 0
        var now = end.addingTimeInterval(-14 * 86_400)
        while now < end.addingTimeInterval(4 * 86_400) {
            try check(now)
            checked += 1
            now = now.addingTimeInterval(11 * 3600 + 13 * 60)
        }
        #expect(checked > 30)
        // Imported readings (another machine's history) in the cells just checked, some busier than usual.
        let times = stride(from: -13.0, to: 0, by: 1).map { end.addingTimeInterval($0 * 86_400 + 600) }
        _ = try store.importReadings(times.map { reading("mccomas", at: $0, occupancy: 590) })
        for day in 0..<3 {
            try check(end.addingTimeInterval(Double(day) * -86_400 + 900))
        }
    }

    @Test(
        "a kept answer is trends's own wherever it says it holds: readings stored ahead enter, old ones leave the window",
        arguments: [0.0, 197, 450, 720, 1260], [true, false])
    func spanHolds(startOffset: Double, windowCutsOldest: Bool) throws {
        let directory = try TemporaryDirectory()
        let store = try HistoryStore(path: directory.path + "/history.sqlite3")
        // Saturdays only (the cell is a Saturday's; the other days would only slow the test down). Without
        // `windowCutsOldest`, the oldest Saturday in the window has no readings: only readings stored ahead
        // change the answer.
        let generator = HistoryGenerator(facilities: [("mccomas", 600)], failedDaysBack: [])
        let firstDay = windowCutsOldest ? 60.0 : 55
        let saturdays = generator.samples(
            from: saturdayNoon.addingTimeInterval(-firstDay * 86_400), to: saturdayNoon
        )
        .filter { zone.day(of: $0.attempt.at).weekday == 6 }
        try store.recordAll(saturdays)
        // Stored ahead of now (a clock that was ahead, then set back): 12:10 … 12:25 today, 100 % down to
        // 70 %.
        let ahead = (0..<4).map {
            reading(
                "mccomas", at: saturdayNoon.addingTimeInterval(600 + Double($0) * 300),
                occupancy: 600 - $0 * 60)
        }
        // The oldest Saturday in the window, whose 12:00–12:30 the window's start cuts through as now
        // moves: full at 12:01, 12:06 … 12:26 besides the generator's readings.
        let oldest = stride(from: 60.0, to: 1800, by: 300).map {
            reading("mccomas", at: saturdayNoon.addingTimeInterval($0 - windowSeconds), occupancy: 600)
        }
        #expect(
            try store.importReadings(ahead + (windowCutsOldest ? oldest : [])) == (windowCutsOldest ? 10 : 4))

        let start = saturdayNoon.addingTimeInterval(startOffset)
        let usual = try UsualNow.compute(
            from: store, facilities: ["mccomas"], at: start, zone: zone, weeks: 8)
        #expect(
            agree(
                usual.percents["mccomas"], try trendsCell(store, facility: "mccomas", at: start, zone: zone)))
        // Every 20 s to the end of the half hour, and a second either side of where the span ends.
        var moments = stride(
            from: start.timeIntervalSince1970, to: saturdayNoon.timeIntervalSince1970 + 1800, by: 20
        )
        .map { Date(timeIntervalSince1970: $0) }
        moments += [-1, -0.5, 0, 0.5, 1].map { usual.until.addingTimeInterval($0) }
        var held = 0
        var values = Set<Double>()
        for moment in moments {
            let expected = try trendsCell(store, facility: "mccomas", at: moment, zone: zone)
            if let expected { values.insert(expected) }
            guard let kept = usual.percents(for: ["mccomas"], at: moment, zone: zone) else { continue }
            held += 1
            #expect(agree(kept["mccomas"], expected), "kept from \(start), asked at \(moment)")
        }
        // The answer changes within the half hour (the test can tell a span too long), and the span is
        // not empty (the status bar gains from keeping it).
        #expect(values.count > 1)
        #expect(held > 0)
        #expect(usual.percents(for: ["mccomas"], at: start.addingTimeInterval(-1), zone: zone) == nil)
        #expect(usual.percents(for: ["mccomas", "war-memorial"], at: start, zone: zone) == nil)
    }

    @Test("the kept file reads back the same answer, to the last bit; anything else is not read")
    func cacheFile() throws {
        let directory = try TemporaryDirectory()
        let entry = UsualNowCache(
            key: .init(
                history: directory.path + "/a folder/history.sqlite3", version: "64769:12:4096:1 wal none",
                zone: "America/New_York", weeks: 8),
            usual: UsualNow(
                percents: ["mccomas": 28.466666666666665, "war-memorial": 0.1 + 0.2],
                facilities: [
                    "mccomas", "war-memorial", "bouldering-wall",
                ], day: 20_512, slot: 24, from: saturdayNoon.addingTimeInterval(0.25),
                until: saturdayNoon.addingTimeInterval(1800)))
        let path = directory.path + "/cache/gymcard/usual-now"
        try entry.save(path)
        #expect(UsualNowCache.load(path) == entry)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        for damaged in ["", "gymcard usual-now 2\n", String(entry.text.dropLast(40)), "\u{0}\u{1}"] {
            try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
            #expect(UsualNowCache.load(path) == nil, "\(damaged)")
        }
        #expect(UsualNowCache.load(directory.path + "/none") == nil)
    }
}

import CivilTime
import Foundation
import History
import Imaging
import TestSupport
import TestTime
import Testing

@testable import Trends

/// 2026-04-04 (after the March change) and 2026-11-21 (after the November one), noon in New York.
let afterSpringChange = Date(timeIntervalSince1970: 1_775_318_400)
let afterAutumnChange = Date(timeIntervalSince1970: 1_795_280_400)

@Suite("The weekly heatmap")
struct WeeklyHeatmapTests {
    let zone = LocalTimeZone.usEastern

    @Test("US Eastern rules: daylight time from Mar 8 to Nov 1, 2026")
    func easternRules() {
        // 2026-03-08 01:59:59 EST, then 03:00 EDT.
        #expect(zone.offsetSeconds(Date(timeIntervalSince1970: 1_772_953_200 - 1)) == -5 * 3600)
        #expect(zone.offsetSeconds(Date(timeIntervalSince1970: 1_772_953_200)) == -4 * 3600)
        // 2026-11-01 01:59:59 EDT, then 01:00 EST.
        #expect(zone.offsetSeconds(Date(timeIntervalSince1970: 1_793_512_800 - 1)) == -4 * 3600)
        #expect(zone.offsetSeconds(Date(timeIntervalSince1970: 1_793_512_800)) == -5 * 3600)
    }

    @Test(
        "ten weeks with gaps, a failed day and a clock change: every cell recovers the pattern within 2 points",
        arguments: [afterSpringChange, afterAutumnChange])
    func recoversPattern(now: Date) {
        let start = now.addingTimeInterval(-70 * 86_400)
        let samples = HistoryGenerator().samples(from: start, to: now)
        let readings = samples.flatMap(\.readings).filter {
            $0.facility == "mccomas" && $0.fetchedAt >= now.addingTimeInterval(-56 * 86_400)
        }
        let heatmap = WeeklyHeatmap(facility: "mccomas", readings: readings, zone: zone)
        var worst = 0.0
        for weekday in 0..<7 {
            for slot in 0..<WeeklyHeatmap.slotsPerDay {
                guard let mean = heatmap.cells[weekday][slot].meanPercent else {
                    Issue.record(
                        "no value for \(WeeklyHeatmap.weekdayNames[weekday]) \(WeeklyHeatmap.slotLabel(slot))"
                    )
                    continue
                }
                worst = max(worst, abs(mean - HistoryGenerator.percent(weekday: weekday, minute: slot * 30)))
            }
        }
        #expect(worst < 2, "the worst cell is \(worst) points off")
        #expect(heatmap.cells.allSatisfy { $0.allSatisfy { $0.days >= 6 } })
    }

    @Test("a day counts only with 3 readings in the slot; days weigh the same however often sampled")
    func method() {
        // Monday 2026-11-16 and 23 at 09:00–09:30 New York (14:00 UTC).
        let monday = Date(timeIntervalSince1970: 1_794_837_600)
        let nextMonday = monday.addingTimeInterval(7 * 86_400)
        func readings(_ start: Date, count: Int, percent: Int) -> [HistoryReading] {
            (0..<count).map {
                HistoryReading(
                    facility: "f", fetchedAt: start.addingTimeInterval(Double($0) * 60), occupancy: percent,
                    capacity: 100)
            }
        }
        let twoDays = WeeklyHeatmap(
            facility: "f",
            readings: readings(monday, count: 20, percent: 80) + readings(nextMonday, count: 3, percent: 20),
            zone: zone)
        let cell = twoDays.cells[0][18]
        #expect(cell.meanPercent == 50)
        #expect(cell.days == 2)
        #expect(cell.readings == 23)
        let thin = WeeklyHeatmap(
            facility: "f",
            readings: readings(monday, count: 20, percent: 80) + readings(nextMonday, count: 2, percent: 20),
            zone: zone)
        #expect(thin.cells[0][18].meanPercent == nil, "one counting day is not enough")
        #expect(thin.cells[0][18].days == 1)
        let closed = HistoryReading(
            facility: "f", fetchedAt: monday, occupancy: 0, capacity: 100, status: .closed)
        let withClosed = WeeklyHeatmap(facility: "f", readings: [closed], zone: zone)
        #expect(withClosed.cells[0][18].closedReadings == 1)
        #expect(withClosed.readingCount == 1)
    }

    @Test("the repeated hour of the November change falls in the 01:00 and 01:30 slots, not a day early")
    func repeatedHour() {
        // 2026-11-01 01:30 EDT is 05:30 UTC; 01:30 EST is 06:30 UTC.
        let first = Date(timeIntervalSince1970: 1_793_511_000)
        let second = first.addingTimeInterval(3600)
        for date in [first, second] {
            let position = WeeklyHeatmap.position(of: date, zone: zone)
            #expect(position.weekday == 6)  // Sunday
            #expect(position.slot == 3)  // 01:30
        }
    }

    @Test("the comparison line: busier, quieter, about as usual, and no history")
    func comparison() {
        let cell = WeeklyHeatmap.Cell(meanPercent: 28.4, days: 8, readings: 48)
        #expect(
            HeatmapTextView.comparison(current: 41, usual: cell)
                == "now 41% · usually 28% at this time · busier than usual")
        #expect(
            HeatmapTextView.comparison(current: 20, usual: cell)
                == "now 20% · usually 28% at this time · quieter than usual")
        #expect(
            HeatmapTextView.comparison(current: 32, usual: cell)
                == "now 32% · usually 28% at this time · about as usual")
        #expect(
            HeatmapTextView.comparison(current: nil, usual: .empty)
                == "now unknown · not enough history for this time yet")
    }

    @Test("the cell for now needs only its own intervals: the same result as the whole window")
    func cellIntervals() {
        let now = afterAutumnChange
        let samples = HistoryGenerator().samples(from: now.addingTimeInterval(-60 * 86_400), to: now)
        let all = samples.flatMap(\.readings).filter {
            $0.facility == "mccomas" && $0.fetchedAt >= now.addingTimeInterval(-56 * 86_400)
        }
        let intervals = WeeklyHeatmap.intervalsForCell(at: now, zone: zone, weeks: 8)
        let few = all.filter { reading in
            intervals.contains { reading.fetchedAt >= $0.from && reading.fetchedAt < $0.to }
        }
        #expect(few.count < all.count / 20)
        let whole = WeeklyHeatmap(facility: "mccomas", readings: all, zone: zone).cell(at: now, zone: zone)
        let part = WeeklyHeatmap(facility: "mccomas", readings: few, zone: zone).cell(at: now, zone: zone)
        #expect(whole.days == part.days && whole.readings == part.readings)
        #expect(abs((whole.meanPercent ?? -1) - (part.meanPercent ?? -2)) < 1e-9)
    }
}

@Suite("The quietest windows")
struct QuietWindowsTests {
    let zone = LocalTimeZone.usEastern

    @Test("a weekday morning: the quiet afternoon is found, scored over the whole workout")
    func findsQuietAfternoon() throws {
        // Friday 2026-11-20 10:00 New York (15:00 UTC).
        let now = Date(timeIntervalSince1970: 1_795_186_800)
        let samples = HistoryGenerator().samples(from: now.addingTimeInterval(-56 * 86_400), to: now)
        let heatmap = WeeklyHeatmap(
            facility: "mccomas", readings: samples.flatMap(\.readings).filter { $0.facility == "mccomas" },
            zone: zone)
        let windows = QuietWindows.find(
            in: heatmap, zone: zone, now: now, withinSeconds: 12 * 3600, durationSeconds: 90 * 60)
        let best = try #require(windows.first)
        // Inside the quiet 13:30–15:30 (which of the two 90-minute fits wins is the noise's choice).
        let quietStart = zone.date(of: zone.day(of: now), secondOfDay: 13 * 3600 + 1800)
        #expect(best.start >= quietStart && best.end <= quietStart.addingTimeInterval(2 * 3600))
        #expect(best.meanPercent < 11)
        #expect(QuietWindows.band(best.meanPercent) == "quiet")
        #expect(windows.count == 3)
        for (one, other) in zip(windows, windows.dropFirst()) {
            #expect(one.end <= other.start || other.end <= one.start, "no overlap")
            #expect(one.meanPercent <= other.meanPercent)
        }
    }

    @Test("a window touching a half hour without history is never suggested")
    func noBridging() {
        let now = Date(timeIntervalSince1970: 1_795_186_800)
        let samples = HistoryGenerator().samples(from: now.addingTimeInterval(-56 * 86_400), to: now)
        // Remove every reading of 14:00–14:30 local: the quiet window can no longer be scored.
        let readings = samples.flatMap(\.readings).filter {
            $0.facility == "mccomas"
                && !(zone.clock(of: $0.fetchedAt).hour == 14 && zone.clock(of: $0.fetchedAt).minute < 30)
        }
        let heatmap = WeeklyHeatmap(facility: "mccomas", readings: readings, zone: zone)
        let windows = QuietWindows.find(
            in: heatmap, zone: zone, now: now, withinSeconds: 12 * 3600, durationSeconds: 90 * 60)
        for window in windows {
            let hole = zone.date(of: zone.day(of: window.start), secondOfDay: 14 * 3600)
            #expect(!(window.start < hole.addingTimeInterval(1800) && window.end > hole))
        }
        #expect(
            QuietWindows.find(
                in: WeeklyHeatmap(facility: "mccomas", readings: [], zone: zone), zone: zone, now: now,
                withinSeconds: 12 * 3600,
                durationSeconds: 90 * 60
            ).isEmpty)
    }
}

@Suite struct HeatmapTitleTests {
    @Test(arguments: [(1, "(1 reading on 1 day)"), (2, "(2 readings on 2 days)")])
    func theTitleCountsInTheSingularForOne(readings count: Int, title: String) throws {
        let zone = LocalTimeZone.usEastern
        let now = Date(timeIntervalSince1970: 1_795_280_400)
        let readings = (0..<count).map { day in
            HistoryReading(
                facility: "mccomas", fetchedAt: now.addingTimeInterval(Double(-day) * 86_400), occupancy: 50,
                capacity: 100)
        }
        let heatmap = WeeklyHeatmap(facility: "mccomas", readings: readings, zone: zone)
        let lines = HeatmapTextView(colour: .none).lines(
            HeatmapTextView.Facility(name: "McComas Hall", heatmap: heatmap, currentPercent: nil), weeks: 8,
            zone: zone, now: now)
        let first = try #require(lines.first)
        #expect(first.hasSuffix(title), "\(first)")
    }
}

@Suite struct HeatmapImageLabelTests {
    @Test func theWeekdayLabelsDoNotTouchOneAnother() {
        let zone = LocalTimeZone.usEastern
        let now = Date(timeIntervalSince1970: 1_795_280_400)
        let heatmap = WeeklyHeatmap(facility: "mccomas", readings: [], zone: zone)
        let image = HeatmapImage.image(
            [HeatmapTextView.Facility(name: "McComas Hall", heatmap: heatmap, currentPercent: nil)],
            zone: zone,
            now: now)
        // The rows of the label column (left of the grid) that hold ink, below the title and the ruler.
        let labelColumns = HeatmapImage.margin..<(HeatmapImage.margin + HeatmapImage.labelWidth - 2)
        let firstRow = HeatmapImage.margin + 2 * (HeatmapImage.textHeight + HeatmapImage.margin / 2)
        let inked = (firstRow..<image.height).map { y in
            labelColumns.contains { x in image[x, y] == HeatmapImage.ink }
        }
        // Seven labels (then the legend), each a run of inked rows, at least 3 blank rows between them.
        var runs: [(start: Int, end: Int)] = []
        for (offset, isInked) in inked.enumerated() where isInked {
            if let last = runs.last, last.end == offset - 1 {
                runs[runs.count - 1].end = offset
            } else {
                runs.append((offset, offset))
            }
        }
        #expect(runs.count >= 7, "\(runs)")
        let labels = runs.prefix(7)
        for (above, below) in zip(labels, labels.dropFirst()) {
            #expect(below.start - above.end > 3, "\(runs)")
        }
    }
}

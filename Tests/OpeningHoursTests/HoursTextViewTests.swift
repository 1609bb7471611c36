import CivilTime
import Foundation
import OpeningHours
import Testing

@Suite struct HoursTextViewTests {
    @Test func theHoursLineUpWhenADateHasOneDigit() {
        let zone = LocalTimeZone.fixed(hours: -5)
        let now = Date(timeIntervalSince1970: 1_795_287_600)  // Sat 2026-11-21 14:00 at -5
        let first = LocalDay(year: 2026, month: 11, day: 29)
        let days = (0..<4).map { first.adding(days: $0) }  // Sun Nov 29 … Wed Dec 2
        let entry = HoursEntry(
            key: "mccomas", name: "McComas Hall", hours: .unknown, source: "the hours service")
        let lines = HoursTextView(zone: zone, now: now, colour: false).lines([entry], days: days)
        let dayLines = lines.dropFirst()
        #expect(dayLines.count == 4, "\(lines)")
        let columns = Set(
            dayLines.map {
                $0.distance(
                    from: $0.startIndex, to: $0.firstRange(of: "unknown")?.lowerBound ?? $0.startIndex)
            })
        #expect(columns.count == 1, "\(dayLines)")
    }
}

import CivilTime
import Events
import Foundation
import TestSupport
import TestTime
import Testing

/// Expanding a daily or weekly rule inside a window, in-process.
@Suite struct EventRecurrenceTests {
    /// A weekly class on Thursdays at 18:00 US Eastern, from Thursday 2026-10-01 (daylight time).
    private static let first = Date(timeIntervalSince1970: 1_790_892_000)  // 2026-10-01T22:00:00Z
    private static func event(_ recurrence: EventRecurrence) -> Event {
        Event(
            id: "class", title: "Class", start: first, end: first.addingTimeInterval(3600), location: nil,
            hosts: [], categories: [], link: nil, status: .confirmed, description: nil, recurrence: recurrence
        )
    }

    private static func starts(_ recurrence: EventRecurrence, from now: Date, days: Int) -> [String] {
        let formatter = ISO8601DateFormatter()
        return EventAgenda.upcoming(
            [event(recurrence)], now: now, days: days, zones: { $0 == "America/New_York" ? .usEastern : nil }
        ).map { formatter.string(from: $0.start) }
    }

    @Test func aWeeklyRuleKeepsItsWallClockAcrossTheEndOfDaylightTime() {
        let rule = EventRecurrence(frequency: .weekly, timeZone: "America/New_York")
        // 18:00 EDT is 22:00 UTC; after November 1, 18:00 EST is 23:00 UTC.
        #expect(
            Self.starts(rule, from: Self.first.addingTimeInterval(20 * 86_400), days: 21) == [
                "2026-10-22T22:00:00Z", "2026-10-29T22:00:00Z", "2026-11-05T23:00:00Z",
            ])
    }

    @Test func everyOtherWeekOnTwoDaysUntilADate() {
        let rule = EventRecurrence(
            frequency: .weekly, interval: 2, weekdays: [2, 4],
            until: Date(timeIntervalSince1970: 1_792_800_000),  // 2026-10-24T00:00:00Z
            timeZone: "America/New_York")
        // Weeks of Sep 28 (Thu Oct 1), Oct 12 (Tue 13, Thu 15): Oct 26 is past UNTIL.
        #expect(
            Self.starts(rule, from: Self.first.addingTimeInterval(-86_400), days: 60) == [
                "2026-10-01T22:00:00Z", "2026-10-13T22:00:00Z", "2026-10-15T22:00:00Z",
            ])
    }

    @Test func aRuleThatStartedLongAgoWithNoEndIsBoundedAndStillReachesTheWindow() {
        let rule = EventRecurrence(frequency: .daily, timeZone: "UTC")
        var ancient = Self.event(rule)
        ancient.start = Date(timeIntervalSince1970: 1_500_000_000)  // 2017
        ancient.end = ancient.start.addingTimeInterval(60)
        let now = Self.first
        let listed = EventAgenda.upcoming([ancient], now: now, days: 3)
        #expect(listed.count == 3)
        #expect(Set(listed.map(\.id)).count == 3)
        let beyond = EventAgenda.upcoming([ancient], now: now.addingTimeInterval(70 * 365 * 86_400), days: 3)
        #expect(beyond.isEmpty, "more than \(EventRecurrence.self)'s bound after the first occurrence")
    }
}

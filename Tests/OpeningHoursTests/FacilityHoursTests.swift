import CivilTime
import Foundation
import OpeningHours
import TestSupport
import TestTime
import Testing

@Suite("Opening state: open, closed or unknown, never a guess")
struct FacilityHoursTests {
    let zone = LocalTimeZone.usEastern
    let sunday = LocalDay(year: 2026, month: 11, day: 22)
    let monday = LocalDay(year: 2026, month: 11, day: 23)
    let tuesday = LocalDay(year: 2026, month: 11, day: 24)

    func interval(_ day: LocalDay, _ opens: Int, _ closes: Int) -> OpeningInterval {
        let closeDay = closes <= opens ? day.adding(days: 1) : day
        return OpeningInterval(
            opens: zone.date(of: day, secondOfDay: opens * 3600),
            closes: zone.date(of: closeDay, secondOfDay: closes * 3600))
    }

    var regular: FacilityHours {
        FacilityHours(days: [
            sunday: .known([interval(sunday, 10, 1)]),  // until 1:00 on Monday
            monday: .known([interval(monday, 6, 23)]),
            tuesday: .known([interval(tuesday, 6, 23)]),
        ])
    }

    func at(_ day: LocalDay, _ hour: Double) -> Date { zone.date(of: day, secondOfDay: Int(hour * 3600)) }

    @Test("open says until when; a night past midnight is still the day before's opening")
    func open() {
        #expect(regular.state(at: at(monday, 12), zone: zone) == .open(closesAt: at(monday, 23)))
        #expect(regular.state(at: at(monday, 0.5), zone: zone) == .open(closesAt: at(monday, 1)))
    }

    @Test("closed says when it opens: later today, or on a later known day")
    func closed() {
        #expect(regular.state(at: at(monday, 3), zone: zone) == .closed(opensAt: at(monday, 6)))
        #expect(regular.state(at: at(monday, 23.5), zone: zone) == .closed(opensAt: at(tuesday, 6)))
        #expect(regular.state(at: at(tuesday, 23.5), zone: zone) == .closed(opensAt: nil))
    }

    @Test("unknown when the day, or the day before (whose night may run on), is unknown")
    func unknown() {
        var hours = regular
        hours.days[sunday] = .unknown
        #expect(hours.state(at: at(monday, 3), zone: zone) == .unknown)
        #expect(hours.state(at: at(monday, 12), zone: zone) == .open(closesAt: at(monday, 23)))
        #expect(FacilityHours.unknown.state(at: at(monday, 12), zone: zone) == .unknown)
        #expect(OpeningState.unknown.isOpen == nil)
        #expect(!OpeningState.unknown.isClosed)
    }

    @Test("a closed day (holiday) closes it all day, and the next opening is after it")
    func holiday() {
        var hours = regular
        hours.days[monday] = .known([], note: "Thanksgiving - Closed")
        #expect(hours.state(at: at(monday, 12), zone: zone) == .closed(opensAt: at(tuesday, 6)))
    }

    @Test("back-to-back intervals merge; isOpen needs the whole window inside one opening")
    func merged() {
        let hours = FacilityHours(days: [
            sunday: .known([]),
            monday: .known([interval(monday, 0, 12), interval(monday, 12, 24)]),
        ])
        #expect(hours.openings.count == 1)
        #expect(hours.isOpen(from: at(monday, 11), to: at(monday, 13)))
        #expect(!regular.isOpen(from: at(monday, 22), to: at(monday, 23.5)))
        #expect(regular.isOpen(from: at(monday, 22), to: at(monday, 23)))
        // Open until midnight with the next day not loaded: the end is not known.
        #expect(hours.state(at: at(monday, 20), zone: zone) == .open(closesAt: nil))
    }

    @Test("the words: opens today, opens tomorrow, closes in N min within the hour")
    func words() {
        let now = at(monday, 3)
        #expect(
            OpeningWords.summary(regular.state(at: now, zone: zone), zone: zone, now: now)
                == "closed · opens 6:00 AM")
        let late = at(monday, 23.5)
        #expect(
            OpeningWords.summary(regular.state(at: late, zone: zone), zone: zone, now: late)
                == "closed · opens tomorrow at 6:00 AM")
        let closing = at(monday, 22 + 35.0 / 60)
        #expect(
            OpeningWords.closingSoon(regular.state(at: closing, zone: zone), now: closing)
                == "closes in 25 min")
        #expect(
            OpeningWords.closingSoon(regular.state(at: at(monday, 12), zone: zone), now: at(monday, 12))
                == nil)
        #expect(OpeningWords.summary(.unknown, zone: zone, now: now) == "hours unknown")
    }
}

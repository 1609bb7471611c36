import CivilTime
import Events
import Foundation
import Testing

/// Saturday 2026-11-21 14:00 in New York (EST, UTC-5) = 19:00 UTC.
private let now = Date(timeIntervalSince1970: 1_795_287_600)
private let newYork = LocalTimeZone.fixed(hours: -5)

private func event(
    _ title: String, startsInHours: Double, hours: Double = 1, status: Event.Status = .confirmed
)
    -> Event
{
    let start = now.addingTimeInterval(startsInHours * 3600)
    return Event(
        id: title, title: title, start: start, end: start.addingTimeInterval(hours * 3600),
        location: "McComas Hall", hosts: ["RecSports", "Club Sports"], categories: [], link: nil,
        status: status, description: nil)
}

@Suite("Local days without Foundation's time zones")
struct LocalTimeZoneTests {
    @Test(
        "civil dates and weekdays",
        arguments: [
            (0, 1970, 1, 1, 4), (-1, 1969, 12, 31, 3), (19_782, 2024, 2, 29, 4), (20_778, 2026, 11, 21, 6),
            (11_016, 2000, 2, 29, 2),
        ])
    func civil(number: Int, year: Int, month: Int, day: Int, weekday: Int) {
        let local = LocalDay(number: number)
        #expect(local.date == (year, month, day))
        #expect(local.weekday == weekday)
    }

    @Test("the day and clock follow the offset, before 1970 too")
    func offsets() {
        #expect(newYork.day(of: now).date == (2026, 11, 21))
        #expect(newYork.clock(of: now) == (14, 0))
        // 03:00 UTC on the 22nd is still the 21st in New York.
        let late = now.addingTimeInterval(8 * 3600)
        #expect(newYork.day(of: late).date == (2026, 11, 21))
        #expect(newYork.clock(of: late) == (22, 0))
        let before1970 = Date(timeIntervalSince1970: -1)
        #expect(LocalTimeZone.fixed(hours: 0).day(of: before1970).date == (1969, 12, 31))
        #expect(LocalTimeZone.fixed(hours: 0).clock(of: before1970) == (23, 59))
    }
}

@Suite("Choosing, ordering and showing events")
struct EventAgendaTests {
    let past = event("Past", startsInHours: -5, hours: 2)
    let current = event("Current", startsInHours: -0.5, hours: 1.5)
    let later = event("Later today", startsInHours: 2)
    let tomorrow = event("Tomorrow's", startsInHours: 20)
    let cancelled = event("Called off", startsInHours: 21, status: .cancelled)
    let nextWeek = event("Within a week", startsInHours: 4 * 24)
    let farther = event("Eight days", startsInHours: 8 * 24)
    let farFuture = event("Far future", startsInHours: 30 * 24)

    @Test("ended events go, ones starting after the window go, the rest sorted by start")
    func upcoming() {
        let chosen = EventAgenda.upcoming(
            [farFuture, tomorrow, past, later, cancelled, current, nextWeek, farther], now: now, days: 14)
        #expect(
            chosen.map(\.title) == [
                "Current", "Later today", "Tomorrow's", "Called off", "Within a week", "Eight days",
            ])
        #expect(EventAgenda.upcoming([farFuture], now: now, days: 31).count == 1)
        #expect(EventAgenda.upcoming([tomorrow], now: now, days: 1).map(\.title) == ["Tomorrow's"])
    }

    @Test("grouped by local day; an event under way is listed under today")
    func byDay() {
        let startedYesterday = event("Overnight", startsInHours: -20, hours: 30)
        let chosen = EventAgenda.upcoming([startedYesterday, current, later, tomorrow], now: now, days: 14)
        let days = EventAgenda.byDay(chosen, now: now, zone: newYork)
        #expect(days.map(\.day.date.day) == [21, 22])
        #expect(days[0].events.map(\.title) == ["Overnight", "Current", "Later today"])
    }

    @Test("text: Today at …, Tomorrow at …, the weekday within a week, else the date; CANCELLED marked")
    func text() {
        let view = EventsTextView(colour: false, zone: newYork, now: now)
        let events = EventAgenda.upcoming(
            [current, later, tomorrow, cancelled, nextWeek, farther], now: now, days: 14)
        let lines = view.lines(events, days: 14)
        #expect(
            lines == [
                "Sat, Nov 21",
                "  Now                   Current (until 3:00 PM)",
                "                        McComas Hall · RecSports, Club Sports",
                "  Today at 4:00 PM      Later today (until 5:00 PM)",
                "                        McComas Hall · RecSports, Club Sports",
                "Sun, Nov 22",
                "  Tomorrow at 10:00 AM  Tomorrow's (until 11:00 AM)",
                "                        McComas Hall · RecSports, Club Sports",
                "  Tomorrow at 11:00 AM  CANCELLED Called off (until 12:00 PM)",
                "                        McComas Hall · RecSports, Club Sports",
                "Wed, Nov 25",
                "  Wednesday at 2:00 PM  Within a week (until 3:00 PM)",
                "                        McComas Hall · RecSports, Club Sports",
                "Sun, Nov 29",
                "  Nov 29 at 2:00 PM     Eight days (until 3:00 PM)",
                "                        McComas Hall · RecSports, Club Sports",
            ])
    }

    @Test("all-day and multi-day events, and a year change, read naturally")
    func spans() {
        let midnight = Date(timeIntervalSince1970: 1_795_323_600)  // 2026-11-22 00:00 in New York
        let allDay = Event(
            id: "a", title: "Open House", start: midnight, end: midnight.addingTimeInterval(86_400),
            location: nil,
            hosts: [], categories: [], link: nil, status: .confirmed, description: nil)
        let weekend = event("Tournament", startsInHours: 20, hours: 30)
        let newYear = event("New Year Run", startsInHours: 41 * 24)
        let view = EventsTextView(colour: false, zone: newYork, now: now)
        let lines = view.lines(
            EventAgenda.upcoming([allDay, weekend, newYear], now: now, days: 60), days: 60)
        #expect(lines.contains("  Tomorrow, all day       Open House"))
        #expect(lines.contains("  Tomorrow at 10:00 AM    Tournament (until Monday at 4:00 PM)"))
        #expect(lines.contains("Fri, Jan 1, 2027"))
        #expect(lines.contains("  Jan 1, 2027 at 2:00 PM  New Year Run (until 3:00 PM)"))
    }

    @Test("colour only when asked: bold titles, red CANCELLED; none at all otherwise")
    func colour() {
        let events = [cancelled]
        let plain = EventsTextView(colour: false, zone: newYork, now: now).lines(events, days: 14)
        #expect(!plain.joined().contains("\u{1B}"))
        let coloured = EventsTextView(colour: true, zone: newYork, now: now).lines(events, days: 14)
        #expect(coloured.joined().contains("\u{1B}[1;31mCANCELLED\u{1B}[0m"))
    }

    @Test("a narrow terminal: titles and details wrap under the title column, none wider than the terminal")
    func wrapsToWidth() {
        let long = Event(
            id: "w", title: "Intramural Pickleball Doubles Championship Finals and Awards Night",
            start: now.addingTimeInterval(3600), end: now.addingTimeInterval(7200),
            location: "War Memorial Hall Gym A", hosts: ["RecSports", "Club Sports Federation"],
            categories: [],
            link: nil, status: .cancelled, description: nil)
        let lines = EventsTextView(colour: false, zone: newYork, now: now, columns: 56).lines(
            [long], days: 14)
        #expect(
            lines == [
                "Sat, Nov 21",
                "  Today at 3:00 PM  CANCELLED Intramural Pickleball",
                "                    Doubles Championship Finals and",
                "                    Awards Night (until 4:00 PM)",
                "                    War Memorial Hall Gym A · RecSports,",
                "                    Club Sports Federation",
            ])
        #expect(lines.allSatisfy { $0.count <= 56 })
        // Colour survives the wrapping: each piece is styled on its own line.
        let coloured = EventsTextView(colour: true, zone: newYork, now: now, columns: 56).lines(
            [long], days: 14)
        #expect(
            coloured[1].hasSuffix("\u{1B}[1;31mCANCELLED\u{1B}[0m \u{1B}[1mIntramural Pickleball\u{1B}[0m"))
        #expect(coloured[3].hasSuffix("\u{1B}[1mAwards Night\u{1B}[0m \u{1B}[2m(until 4:00 PM)\u{1B}[0m"))
        // Too narrow for the text beside the label: it goes under it, still wrapped.
        #expect(
            EventsTextView(colour: false, zone: newYork, now: now, columns: 30).lines([long], days: 14) == [
                "Sat, Nov 21",
                "  Today at 3:00 PM",
                "    CANCELLED Intramural",
                "    Pickleball Doubles",
                "    Championship Finals and",
                "    Awards Night (until 4:00",
                "    PM)",
                "    War Memorial Hall Gym A ·",
                "    RecSports, Club Sports",
                "    Federation",
            ])
        // Too narrow to wrap usefully even there: the title and details run on, a line each.
        #expect(
            EventsTextView(colour: false, zone: newYork, now: now, columns: 22).lines([long], days: 14).count
                == 4)
    }

    @Test("40 columns with a long weekday label: every event's text goes under its label, all lines fit")
    func stacksUnderLongLabels() {
        let events = [
            event("Yoga Flow for Everyone at the Main Studio", startsInHours: 2),
            event("Open Climb", startsInHours: 4 * 24 + 8),  // Wednesday at 10:00 PM
        ]
        let lines = EventsTextView(colour: false, zone: newYork, now: now, columns: 40).lines(
            events, days: 14)
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(
            lines == [
                "Sat, Nov 21",
                "  Today at 4:00 PM",
                "    Yoga Flow for Everyone at the Main",
                "    Studio (until 5:00 PM)",
                "    McComas Hall · RecSports, Club",
                "    Sports",
                "Wed, Nov 25",
                "  Wednesday at 10:00 PM",
                "    Open Climb (until 11:00 PM)",
                "    McComas Hall · RecSports, Club",
                "    Sports",
            ])
    }

    @Test("nothing in the window says so")
    func empty() {
        let view = EventsTextView(colour: false, zone: newYork, now: now)
        #expect(view.lines([], days: 7) == ["No events in the next 7 days."])
    }

    @Test("JSON: the documented keys, times in UTC, explicit nulls")
    func json() throws {
        let document = EventsJSON.document([event("Yoga & Pilates", startsInHours: 1, status: .cancelled)])
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first)
        #expect(
            Set(entry.keys) == [
                "title", "start", "end", "location", "hosts", "categories", "link", "status", "description",
            ])
        #expect(entry["title"] as? String == "Yoga & Pilates")
        #expect(entry["start"] as? String == "2026-11-21T20:00:00Z")
        #expect(entry["status"] as? String == "cancelled")
        #expect(entry["link"] is NSNull)
        #expect(entry["hosts"] as? [String] == ["RecSports", "Club Sports"])
    }
}

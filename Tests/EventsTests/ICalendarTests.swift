import Events
import EventsFeed
import Foundation
import Testing

/// 2024-10-18 20:00:00 UTC.
private let octoberEighteenth = Date(timeIntervalSince1970: 1_729_281_600)

private func event(
    _ id: String, title: String, startOffsetHours: Double = 0, hours: Double = 1,
    location: String? = "McComas Hall",
    hosts: [String] = ["RecSports"], categories: [String] = ["Fitness"], status: Event.Status = .confirmed,
    description: String? = nil
) -> Event {
    let start = octoberEighteenth.addingTimeInterval(startOffsetHours * 3600)
    return Event(
        id: id, title: title, start: start, end: start.addingTimeInterval(hours * 3600), location: location,
        hosts: hosts, categories: categories,
        link: "https://gobblerconnect.vt.edu/event/\(id.filter(\.isNumber))",
        status: status, description: description)
}

@Suite("The iCalendar reader")
struct ICalendarReaderTests {
    @Test("folded lines, time zones, UTC, floating and all-day times, durations, escapes, status, alarms")
    func reads() throws {
        let calendar = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VTIMEZONE\r
            TZID:America/New_York\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:swim-1@recsports\r
            DTSTART;TZID=America/New_York:20241018T160000\r
            DTEND;TZID="America/New_York":20241018T173000\r
            SUMMARY:Swim Clinic\\, Lanes 1–4\\; bring goggles\r
            LOCATION:War Memorial\r
             Pool\r
            DESCRIPTION:Line one\\nLine two with a backslash \\\\ here\r
            CATEGORIES:Aquatics,Clinics\\, Free\r
            ORGANIZER;CN="Aquatics: RecSports":mailto:aquatics@vt.edu\r
            URL:https://recsports.vt.edu/swim\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Reminder, not the event's description\r
            END:VALARM\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:run-2@recsports\r
            DTSTART:20241019T140000Z\r
            DURATION:PT1H30M\r
            SUMMARY:5K Fun Run (Cancelled)\r
            STATUS:CANCELLED\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:day-3@recsports\r
            DTSTART;VALUE=DATE:20241020\r
            SUMMARY:Open House\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:floating-4@recsports\r
            DTSTART:20241021T090000\r
            DTEND:20241021T100000\r
            SUMMARY:Floating yoga\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:mozilla-5@recsports\r
            DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20241022T120000\r
            DTEND;TZID=/mozilla.org/20050126_1/America/New_York:20241022T130000\r
            SUMMARY:Lunch lift\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:nostart-6@recsports\r
            SUMMARY:No start\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:swim-1@recsports\r
            DTSTART:20241018T200000Z\r
            SUMMARY:Duplicate\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let parsed = try ICalendarReader.parse(calendar, localZone: tokyo)
        #expect(parsed.skipped == 1)
        #expect(
            parsed.events.map(\.id) == [
                "swim-1@recsports", "run-2@recsports", "day-3@recsports", "floating-4@recsports",
                "mozilla-5@recsports",
            ])
        let swim = parsed.events[0]
        #expect(swim.title == "Swim Clinic, Lanes 1–4; bring goggles")
        #expect(swim.start == octoberEighteenth)
        #expect(swim.end == octoberEighteenth.addingTimeInterval(5400))
        #expect(swim.location == "War MemorialPool")
        #expect(swim.description == "Line one\nLine two with a backslash \\ here")
        #expect(swim.categories == ["Aquatics", "Clinics, Free"])
        #expect(swim.hosts == ["Aquatics: RecSports"])
        #expect(swim.link == "https://recsports.vt.edu/swim")
        #expect(swim.status == .confirmed)

        let run = parsed.events[1]
        #expect(run.status == .cancelled)
        #expect(run.title == "5K Fun Run")
        #expect(run.end.timeIntervalSince(run.start) == 5400)

        let day = parsed.events[2]
        var tokyoCalendar = Calendar(identifier: .gregorian)
        tokyoCalendar.timeZone = tokyo
        #expect(day.start == tokyoCalendar.date(from: DateComponents(year: 2024, month: 10, day: 20)))
        #expect(day.end.timeIntervalSince(day.start) == 86_400)

        let floating = parsed.events[3]
        #expect(
            floating.start
                == tokyoCalendar.date(from: DateComponents(year: 2024, month: 10, day: 21, hour: 9)))

        // 12:00 in New York (EDT, UTC-4) is 16:00 UTC.
        #expect(parsed.events[4].start == Date(timeIntervalSince1970: 1_729_612_800))
    }

    @Test(
        "a calendar cut short, and bodies that are not calendars, are problems",
        arguments: [
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20241019T140000Z\r\n",
            "<html><body>not a calendar</body></html>",
            "",
        ])
    func notCalendars(body: String) {
        #expect(throws: FeedProblem.self) { try ICalendarReader.parse(body) }
    }

    @Test("an empty calendar is no events")
    func emptyCalendar() throws {
        let parsed = try ICalendarReader.parse("BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n")
        #expect(parsed.events.isEmpty && parsed.skipped == 0)
    }
}

@Suite("The iCalendar export")
struct ICalendarWriterTests {
    let events = [
        event(
            "https://gobblerconnect.vt.edu/event/1", title: "Yoga & Pilates; mats, water \\ towels",
            description: "First paragraph, with commas; semicolons.\n\nSecond paragraph \\ backslash"),
        event(
            "https://gobblerconnect.vt.edu/event/2",
            title: "Bouldering Wall Night — ボルダリング体験会 🧗 with a title long enough to be folded twice over",
            startOffsetHours: 24, hosts: ["Climbing Club", "RecSports, Outdoor"],
            categories: ["Climbing", "Social, Fun"], status: .cancelled),
        event(
            "https://gobblerconnect.vt.edu/event/3", title: "Plain", location: nil, hosts: [], categories: []),
    ]

    @Test("round-trips through gymcard's own reader: the same events come back")
    func roundTrip() throws {
        let text = ICalendarWriter.calendar(events, name: "RecSports events", generatedAt: octoberEighteenth)
        let parsed = try ICalendarReader.parse(text)
        #expect(parsed.skipped == 0)
        #expect(parsed.events == events)
    }

    @Test("lines end in CRLF, fold at 75 octets without splitting a character, and escape TEXT values")
    func lines() throws {
        let text = ICalendarWriter.calendar(events, name: "RecSports events", generatedAt: octoberEighteenth)
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let bytes = Array(text.utf8)
        // Every LF is preceded by CR.
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            #expect(index > 0 && bytes[index - 1] == 0x0D)
        }
        let physical = text.components(separatedBy: "\r\n").dropLast()
        for line in physical {
            #expect(line.utf8.count <= 75, "\(line)")
            // Each physical line is valid UTF-8 on its own: no character was cut in two.
            #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil)
        }
        #expect(physical.contains { $0.hasPrefix(" ") }, "the long title and description are folded")
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("SUMMARY:Yoga & Pilates\\; mats\\, water \\\\ towels\r\n"))
        #expect(
            unfolded.contains(
                "DESCRIPTION:First paragraph\\, with commas\\; semicolons.\\n\\nSecond paragraph \\\\ backslash\r\n"
            ))
        #expect(unfolded.contains("DTSTART:20241018T200000Z\r\nDTEND:20241018T210000Z\r\n"))
        #expect(unfolded.contains("STATUS:CANCELLED\r\n"))
        #expect(unfolded.contains("UID:https://gobblerconnect.vt.edu/event/1\r\n"))
        #expect(unfolded.contains("CATEGORIES:Climbing,Social\\, Fun\r\n"))
        for required in ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:", "DTSTAMP:20241018T200000Z"] {
            #expect(unfolded.contains(required))
        }
    }
    @Test("control characters from a feed are left out of TEXT values (RFC 5545 allows none but HTAB)")
    func controls() throws {
        let hostile = event(
            "https://gobblerconnect.vt.edu/event/9",
            title: "Yoga\u{1B}[2J\u{1B}]0;OWNED\u{07}\u{08}\u{7F}\tmats",
            location: "Room\u{1B}]8;;http://x\u{1B}\\", hosts: ["Host\u{1B}[5mBLINK"], categories: [])
        let text = ICalendarWriter.calendar(
            [hostile], name: "RecSports events", generatedAt: octoberEighteenth)
        let controls = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\r" && $0 != "\n" && $0 != "\t") || $0.value == 0x7F
        }
        #expect(controls.isEmpty, "\(controls.map(\.value))")
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("SUMMARY:Yoga[2J]0\\;OWNED\tmats\r\n"))
        #expect(try ICalendarReader.parse(text).events.first?.title == "Yoga[2J]0;OWNED\tmats")
    }
}

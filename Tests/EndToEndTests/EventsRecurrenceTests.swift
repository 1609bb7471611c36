import Foundation
import TestServer
import TestSupport
import Testing

/// Saturday 2026-11-21 14:00 in New York (19:00 UTC), as in EventsCommandTests.
private let nowText = "2026-11-21T19:00:00Z"

/// A calendar as a campus calendar exports it: a weekly class on Mondays and Wednesdays in New York
/// time with one week's Wednesday off (EXDATE) and a moved Monday (RECURRENCE-ID), a swim every other
/// day four times (COUNT, UTC), a monthly competition (not expanded), and a single event.
private let calendar = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Campus//Calendar//EN\r
    BEGIN:VEVENT\r
    UID:spin@recsports\r
    SUMMARY:Spin Class\r
    DTSTART;TZID=America/New_York:20261102T180000\r
    DTEND;TZID=America/New_York:20261102T184500\r
    RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261216T235959Z\r
    EXDATE;TZID=America/New_York:20261125T180000\r
    LOCATION:War Memorial Hall\r
    CATEGORIES:Fitness\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:spin@recsports\r
    RECURRENCE-ID;TZID=America/New_York:20261130T180000\r
    SUMMARY:Spin Class (moved)\r
    DTSTART;TZID=America/New_York:20261130T190000\r
    DTEND;TZID=America/New_York:20261130T194500\r
    LOCATION:War Memorial Hall\r
    CATEGORIES:Fitness\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:swim@recsports\r
    SUMMARY:Open Swim\r
    DTSTART:20261120T120000Z\r
    DTEND:20261120T130000Z\r
    RRULE:FREQ=DAILY;INTERVAL=2;COUNT=4\r
    LOCATION:McComas Hall pool\r
    CATEGORIES:Aquatics\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:comp@recsports\r
    SUMMARY:Climbing Competition\r
    DTSTART:20261128T150000Z\r
    DTEND:20261128T200000Z\r
    RRULE:FREQ=MONTHLY;BYDAY=-1SA\r
    LOCATION:McComas Hall wall\r
    CATEGORIES:Climbing,Competition\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:yoga@recsports\r
    SUMMARY:Yoga on the Drillfield\r
    DESCRIPTION:Bring a mat and water.\r
    DTSTART:20261122T150000Z\r
    DTEND:20261122T160000Z\r
    LOCATION:The Drillfield\r
    CATEGORIES:Outdoors,Fitness\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

private func events(_ arguments: [String], feed: String) async throws -> [(title: String, start: String)] {
    let server = try await FeedServer(LocalServer.Response(contentType: "text/calendar; charset=utf-8", feed))
    defer { Task { await server.server.stop() } }
    let home = try TemporaryDirectory()
    let gymcard = GymcardProcess(
        home: home.path,
        extra: [
            "GYMCARD_EVENTS_URL": server.server.url("/calendar.ics").absoluteString,
            "GYMCARD_TEST_NOW": nowText, "TZ": "America/New_York",
        ])
    let result = try await gymcard.run(["events", "--timeout", "60", "--json"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let entries = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    return entries.map { ($0["title"] as? String ?? "", $0["start"] as? String ?? "") }
}

@Suite("events: repeating iCalendar events and search, end to end", .serialized)
struct EventsRecurrenceTests {
    @Test(
        "a weekly RRULE is listed on each occurrence inside --days, without its EXDATE, moved occurrence kept"
    )
    func weekly() async throws {
        let listed = try await events(["--days", "21", "--search", "spin"], feed: calendar)
        #expect(
            listed.map(\.start) == [
                // Mondays and Wednesdays at 18:00 EST; Wednesday the 25th excepted, Monday the 30th moved
                // to 19:00; the window ends on Saturday, December 12.
                "2026-11-23T23:00:00Z", "2026-12-01T00:00:00Z", "2026-12-02T23:00:00Z",
                "2026-12-07T23:00:00Z",
                "2026-12-09T23:00:00Z",
            ], "\(listed)")
        #expect(listed.map(\.title).filter { $0 == "Spin Class (moved)" }.count == 1)
    }

    @Test("DAILY with INTERVAL and COUNT; a MONTHLY rule listed once; a window that ends first")
    func dailyAndUnsupported() async throws {
        let swims = try await events(["--days", "30", "--search", "swim"], feed: calendar)
        // Nov 20 (ended), 22, 24, 26: COUNT=4 counts from the first.
        #expect(
            swims.map(\.start) == ["2026-11-22T12:00:00Z", "2026-11-24T12:00:00Z", "2026-11-26T12:00:00Z"])
        let short = try await events(["--days", "3", "--search", "swim"], feed: calendar)
        #expect(short.map(\.start) == ["2026-11-22T12:00:00Z", "2026-11-24T12:00:00Z"])
        let comp = try await events(["--days", "60", "--category", "competition"], feed: calendar)
        #expect(comp.map(\.title) == ["Climbing Competition"])
    }

    @Test("--search, --category and --location choose events; words anywhere, any case")
    func search() async throws {
        #expect(
            try await events(["--search", "MAT water"], feed: calendar).map(\.title) == [
                "Yoga on the Drillfield"
            ])
        #expect(
            try await events(["--location", "drillfield"], feed: calendar).map(\.title) == [
                "Yoga on the Drillfield"
            ])
        let aquaticsOrOutdoors = try await events(
            ["--category", "aquatics", "--category", "OUTDOORS", "--days", "3"], feed: calendar)
        #expect(aquaticsOrOutdoors.map(\.title) == ["Open Swim", "Yoga on the Drillfield", "Open Swim"])
        let pool = try await events(["--location", "pool", "--search", "spin"], feed: calendar)
        #expect(pool.isEmpty)
    }

    @Test("a weekly event written by Python's icalendar, with EXDATE and COUNT")
    func writtenByPython() async throws {
        let script = """
            import datetime, icalendar, sys, zoneinfo
            zone = zoneinfo.ZoneInfo("America/New_York")
            calendar = icalendar.Calendar()
            calendar.add("prodid", "-//python icalendar//EN")
            calendar.add("version", "2.0")
            event = icalendar.Event()
            event.add("uid", "lift@python")
            event.add("summary", "Lifting Basics")
            event.add("dtstart", datetime.datetime(2026, 11, 5, 17, 30, tzinfo=zone))
            event.add("dtend", datetime.datetime(2026, 11, 5, 18, 30, tzinfo=zone))
            event.add("rrule", {"freq": "weekly", "interval": 1, "count": 6})
            event.add("exdate", datetime.datetime(2026, 11, 26, 17, 30, tzinfo=zone))
            event.add("location", "McComas Hall")
            calendar.add_component(event)
            sys.stdout.buffer.write(calendar.to_ical())
            """
        let (status, output, error) = try await Interop.runPython(script, [])
        #expect(status == 0, "\(error)")
        let feed = String(decoding: output, as: UTF8.self)
        #expect(feed.contains("RRULE:FREQ=WEEKLY;COUNT=6"), "\(feed)")
        // Thursdays Nov 5, 12, 19, (26 excepted), Dec 3, 10: COUNT=6 ends on Dec 10.
        let listed = try await events(["--days", "60"], feed: feed)
        #expect(listed.map(\.start) == ["2026-12-03T22:30:00Z", "2026-12-10T22:30:00Z"], "\(listed)")
    }
}

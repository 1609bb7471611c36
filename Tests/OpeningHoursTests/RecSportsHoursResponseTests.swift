import CivilTime
import Fetching
import Foundation
import OpeningHours
import TestSupport
import TestTime
import Testing

/// A moment given in UTC, `2026-11-23T11:00:00Z`.
func utc(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

/// A unit of the VT hours service's answer, as ARCHITECTURE §10 describes its shape.
func vtUnit(_ id: String, _ name: String, rows: [String]) -> String {
    #"{"id": "\#(id)", "name": "\#(name)", "hours": [\#(rows.joined(separator: ", "))]}"#
}

/// One row of a unit's hours.
func vtRow(
    open: String, close: String, title: String = "Regular Hours", label: String = "Fall Semester",
    start: String = "2026-08-24T00:00:00", end: String = "2026-12-12T00:00:00"
) -> String {
    #"{"start": "\#(start)", "end": "\#(end)", "open_time": "\#(open)", "close_time": "\#(close)", "title": "\#(title)", "label": "\#(label)"}"#
}

@Suite("VT's RecSports hours service: the JSON read strictly")
struct RecSportsHoursResponseTests {
    let zone = LocalTimeZone.usEastern
    let monday = LocalDay(year: 2026, month: 11, day: 23)

    func parse(_ units: [String], day: LocalDay? = nil) throws -> [String: DayHours] {
        try RecSportsHoursResponse.parse(
            Data(("[" + units.joined(separator: ", ") + "]").utf8), day: day ?? monday, zone: zone)
    }

    @Test("a normal day: each unit's interval on the Eastern clock, labels kept, by unit ID")
    func normalDay() throws {
        let answer = try parse([
            vtUnit("1", "McComas Hall", rows: [vtRow(open: "06:00:00", close: "23:00:00")]),
            vtUnit(
                "2", "War Memorial Hall",
                rows: [
                    vtRow(open: "16:00:00", close: "22:00:00", label: "Evening"),
                    vtRow(open: "06:00", close: "12:00", label: "Morning"),
                ]),
        ])
        #expect(
            answer["1"]
                == .known([
                    OpeningInterval(
                        opens: try utc("2026-11-23T11:00:00Z"), closes: try utc("2026-11-24T04:00:00Z"),
                        label: "Fall Semester")
                ]))
        let warMemorial = try #require(answer["2"])
        #expect(warMemorial.intervals.map(\.label) == ["Morning", "Evening"])
        #expect(
            warMemorial.intervals.map(\.opens) == [
                try utc("2026-11-23T11:00:00Z"), try utc("2026-11-23T21:00:00Z"),
            ])
    }

    @Test(
        "\"Closed\" in a title or a label means closed all day, with the note kept",
        arguments: [
            ("Thanksgiving - Closed", "Holiday"), ("Regular Hours", "CLOSED for break"),
        ])
    func closedDay(title: String, label: String) throws {
        let answer = try parse([
            vtUnit(
                "1", "McComas Hall", rows: [vtRow(open: "06:00", close: "23:00", title: title, label: label)])
        ])
        let day = try #require(answer["1"])
        #expect(day.isKnown)
        #expect(day.intervals.isEmpty)
        guard case .known(_, let note) = day else { Issue.record("not known"); return }
        #expect(note == title)
    }

    @Test("a close before the open is after midnight: the interval ends the next day")
    func afterMidnight() throws {
        let answer = try parse([
            vtUnit("2", "War Memorial Hall", rows: [vtRow(open: "18:00:00", close: "01:30:00")])
        ])
        #expect(
            answer["2"]?.intervals.map { [$0.opens, $0.closes] }
                == [[try utc("2026-11-23T23:00:00Z"), try utc("2026-11-24T06:30:00Z")]])
    }

    @Test("equal open and close times are ambiguous: unknown, never open", arguments: ["00:00:00", "06:00"])
    func equalTimes(time: String) throws {
        let answer = try parse([vtUnit("1", "McComas Hall", rows: [vtRow(open: time, close: time)])])
        #expect(answer["1"] == .unknown)
    }

    @Test("a unit missing from the answer is absent; a unit without usable rows is unknown")
    func missingUnit() throws {
        let answer = try parse([
            vtUnit("2", "War Memorial Hall", rows: [vtRow(open: "06:00", close: "23:00")]),
            vtUnit(
                "3", "Outdoor Pool",
                rows: [vtRow(open: "06:00", close: "23:00", start: "2026-05-01", end: "2026-08-31")]),
            #"{"id": 4, "name": "Numbered"}"#,
        ])
        #expect(answer["1"] == nil)
        #expect(answer["2"]?.isKnown == true)
        #expect(answer["3"] == .unknown)
        #expect(answer["4"] == .unknown)
    }

    @Test(
        "an answer that is not the list of units is a problem, not an empty day",
        arguments: [
            "<html>Service Unavailable</html>", #"{"error": "no"}"#, "",
        ])
    func notTheList(body: String) {
        #expect(throws: HoursProblem.self) {
            try RecSportsHoursResponse.parse(Data(body.utf8), day: monday, zone: zone)
        }
    }

    @Test(
        "both daylight-saving changes: 6:00 stays 6:00 on the local clock, and a night across the change is an hour shorter or longer"
    )
    func daylightSaving() throws {
        let spring = LocalDay(year: 2026, month: 3, day: 8)
        let springAnswer = try parse(
            [
                vtUnit(
                    "1", "McComas Hall",
                    rows: [vtRow(open: "06:00", close: "23:00", start: "2026-01-01", end: "2026-12-31")])
            ], day: spring)
        #expect(springAnswer["1"]?.intervals.first?.opens == (try utc("2026-03-08T10:00:00Z")))
        let dayBefore = try parse(
            [
                vtUnit(
                    "1", "McComas Hall",
                    rows: [vtRow(open: "22:00", close: "03:00", start: "2026-01-01", end: "2026-12-31")])
            ], day: spring.adding(days: -1))
        let night = try #require(dayBefore["1"]?.intervals.first)
        #expect(night.closes.timeIntervalSince(night.opens) == 4 * 3600)

        let autumn = LocalDay(year: 2026, month: 11, day: 1)
        let autumnAnswer = try parse(
            [
                vtUnit(
                    "1", "McComas Hall",
                    rows: [vtRow(open: "06:00", close: "23:00", start: "2026-01-01", end: "2026-12-31")])
            ], day: autumn)
        #expect(autumnAnswer["1"]?.intervals.first?.opens == (try utc("2026-11-01T11:00:00Z")))
        let autumnNight = try #require(
            try parse(
                [
                    vtUnit(
                        "1", "McComas Hall",
                        rows: [vtRow(open: "22:00", close: "03:00", start: "2026-01-01", end: "2026-12-31")])
                ], day: autumn.adding(days: -1))["1"]?.intervals.first)
        #expect(autumnNight.closes.timeIntervalSince(autumnNight.opens) == 6 * 3600)
    }

    @Test("the request asks <base>/Date/<YYYY-MM-DD> for JSON, whatever the base's trailing slash")
    func request() throws {
        let base = try #require(URL(string: "http://127.0.0.1:9/rshours/Api/NonRestricted/UnitsOpenOnDay/"))
        let request = RecSportsHoursResponse.request(base: base, day: LocalDay(year: 2026, month: 3, day: 8))
        #expect(
            request.url.absoluteString
                == "http://127.0.0.1:9/rshours/Api/NonRestricted/UnitsOpenOnDay/Date/2026-03-08")
        #expect(request.accept.contains("application/json"))
    }
}

import CivilTime
import Fetching
import FoundationEssentials
import TextSearch

/// Virginia Tech's RecSports hours service:
/// `GET <base>/Date/<YYYY-MM-DD>` answers a JSON array of units,
/// `[{"id": "1", "name": "McComas", "hours": [{"start", "end", "open_time", "close_time", "title", "label"}]}]`
/// (ARCHITECTURE §10). Unit `"1"` is McComas Hall, `"2"` War Memorial Hall.
///
/// How a unit's day is read, strictly, so that nothing unsure becomes "open":
/// - rows whose `start`…`end` dates do not include the day are left out;
/// - "Closed" in a row's title or label means closed all day;
/// - times are the facility's local clock; a close before the open is after midnight (the interval
///   belongs to the day it opens, which is why a caller asks for the day before as well);
/// - equal open and close times are ambiguous (closed? open all day?): the day is unknown;
/// - a unit with no usable row, and a unit missing from the answer, are unknown.
public enum RecSportsHoursResponse {
    /// The request for one day's hours.
    public static func request(base: URL, day: LocalDay) -> HTTPRequest {
        .get(url(base: base, day: day), accept: ExpectedContent.json.acceptHeader)
    }

    /// `<base>/Date/<YYYY-MM-DD>`.
    public static func url(base: URL, day: LocalDay) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        // A base URL and a date always make a URL.
        // swift-format-ignore: NeverForceUnwrap
        return URL(string: text + "/Date/" + isoDate(day))!
    }

    /// Each unit's hours on `day`, by unit ID; units the answer does not list are absent.
    ///
    /// - Throws: ``HoursProblem`` when the body is not the service's JSON.
    public static func parse(_ body: Data, day: LocalDay, zone: LocalTimeZone) throws(HoursProblem)
        -> [String:
        DayHours]
    {
        let units: [Unit]
        do { units = try JSONDecoder().decode([Unit].self, from: body) } catch {
            throw HoursProblem("the hours service answered something that is not its list of units")
        }
        var result: [String: DayHours] = [:]
        for unit in units { result[unit.id] = hours(of: unit, on: day, zone: zone) }
        return result
    }

    private static func hours(of unit: Unit, on day: LocalDay, zone: LocalTimeZone) -> DayHours {
        let rows = (unit.hours ?? []).filter { row in
            if let start = row.start.flatMap(Self.day(from:)), start > day { return false }
            if let end = row.end.flatMap(Self.day(from:)), end < day { return false }
            return true
        }
        if let closed = rows.first(where: { row in
            [row.title, row.label].contains { $0?.range(ignoringCaseOf: "closed") != nil }
        }) {
            return .known(
                [], note: [closed.title, closed.label].compactMap { $0?.trimmed }.first { !$0.isEmpty })
        }
        var intervals: [OpeningInterval] = []
        for row in rows {
            guard let opens = row.openTime.flatMap(ClockTime.init),
                let closes = row.closeTime.flatMap(ClockTime.init)
            else { continue }
            // Equal times could mean closed or open all day: unknown rather than a guess.
            guard opens != closes else { return .unknown }
            let openDate = zone.date(of: day, secondOfDay: opens.secondOfDay)
            let closeDay = closes.secondOfDay < opens.secondOfDay ? day.adding(days: 1) : day
            let closeDate = zone.date(of: closeDay, secondOfDay: closes.secondOfDay)
            let label = [row.label, row.title].compactMap { $0?.trimmed }.first { !$0.isEmpty }
            intervals.append(OpeningInterval(opens: openDate, closes: closeDate, label: label))
        }
        return intervals.isEmpty ? .unknown : .known(intervals.sorted { $0.opens < $1.opens })
    }

    /// `2026-11-23` (also the date part of `2026-11-23T00:00:00`).
    static func day(from text: String) -> LocalDay? {
        let parts = text.prefix(10).split(separator: "-")
        guard text.count >= 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let dayOfMonth = Int(parts[2]), (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        return LocalDay(year: year, month: month, day: dayOfMonth)
    }

    /// `2026-11-23`.
    public static func isoDate(_ day: LocalDay) -> String {
        let date = day.date
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day))"
    }

    private struct Unit: Decodable {
        var id: String
        var hours: [Row]?

        enum CodingKeys: String, CodingKey { case id, hours }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // The ID comes as a string; accept a number too.
            if let text = try? container.decode(String.self, forKey: .id) {
                id = text
            } else {
                id = String(try container.decode(Int.self, forKey: .id))
            }
            hours = try container.decodeIfPresent([Row].self, forKey: .hours)
        }
    }

    private struct Row: Decodable {
        var start: String?
        var end: String?
        var openTime: String?
        var closeTime: String?
        var title: String?
        var label: String?

        enum CodingKeys: String, CodingKey {
            case start, end, title, label
            case openTime = "open_time"
            case closeTime = "close_time"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? {
                try? container.decodeIfPresent(String.self, forKey: key)
            }
            start = text(.start)
            end = text(.end)
            openTime = text(.openTime)
            closeTime = text(.closeTime)
            title = text(.title)
            label = text(.label)
        }
    }
}

extension ExpectedContent {
    /// A JSON document (`text/plain` passes too: some services label JSON so).
    public static let json = ExpectedContent(
        mediaTypes: ["application/json", "text/json", "text/plain"], name: "JSON")
}

/// Why hours could not be read, worded for a person.
public struct HoursProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates a problem.
    public init(_ description: String) { self.description = description }
}

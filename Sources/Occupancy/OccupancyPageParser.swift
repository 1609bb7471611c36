import FoundationEssentials
import Markup
import TextSearch

/// Why a page gave no numbers. A page like this means *unavailable*, never 0 people.
public enum OccupancyPageProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// A sign-in form instead of the fragment.
    case signInPage
    /// The platform says it is temporarily unavailable or under maintenance.
    case temporarilyUnavailable
    /// Occupancy charts are there, but none for this facility's ID.
    case otherFacility(id: String)
    /// No occupancy numbers at all.
    case noNumbers
    /// A word where the number should be (`closed`).
    case notANumber(String)
    /// The chart and its small-screen duplicate disagree.
    case inconsistent(String)
    /// A waiting room (Queue-Fair, Queue-it) stands in front of the site.
    case waitingRoom
    /// The page is empty.
    case emptyPage
    /// A page that builds itself with JavaScript: its numbers are not in the HTML.
    case javaScriptShell

    /// Says what was wrong, for a person.
    public var description: String { description(campus: nil) }

    /// The same, with the command that finds a changed ID naming `campus` (`nil`: the built-in one).
    public func description(campus: String?) -> String {
        switch self {
        case .signInPage: return "the occupancy page asks for a sign-in"
        case .temporarilyUnavailable: return "the occupancy page says it is temporarily unavailable"
        case .otherFacility(let id):
            return
                "the page has no numbers for facility \(id); its ID may have changed (gymcard facilities --discover"
                + (campus.map { " --campus \($0)" } ?? "") + ")"
        case .noNumbers: return "the occupancy page has no numbers in it"
        case .notANumber(let word): return "the page says \"\(word)\" instead of a number"
        case .inconsistent(let detail): return "the page contradicts itself (\(detail))"
        case .waitingRoom:
            return "the site put this request in a waiting room (a queue page); try again later"
        case .emptyPage: return "the occupancy page is empty"
        case .javaScriptShell:
            return "the page is built by JavaScript and has no numbers in its HTML; gymcard cannot read it"
        }
    }
}

/// Reads the numbers off the Innosoft Fusion occupancy fragment (ARCHITECTURE §7).
///
/// The numbers sit on `<canvas class="occupancy-chart" id="occupancyChart-<uuid>" data-occupancy="165"
/// data-remaining="1035">`, with a responsive duplicate whose id ends in `-sm`; `Max Occupancy: 1200`
/// (or `<strong>1200</strong>`) nearby gives the capacity. Attribute values may be in double, single or
/// no quotes and carry thousands separators.
public enum OccupancyPageParser {
    /// Parses the fragment for `facility`. Capacity comes from the page when it says, else the facility's.
    public static func parse(_ page: String, for facility: Facility) throws(OccupancyPageProblem)
        -> OccupancyReading
    {
        try parse(page, for: facility, checkedPage: false)
    }

    /// The same; `checkedPage` says the whole page was already checked for a waiting room or sign-in.
    static func parse(_ page: String, for facility: Facility, checkedPage: Bool) throws(OccupancyPageProblem)
        -> OccupancyReading
    {
        if !checkedPage, let problem = FusionPage.pageProblem(page) { throw problem }
        if facility.measure == .percent, let percent = shownPercent(in: page) { return .percentOnly(percent) }
        let charts = HTMLTags.find("canvas", in: page).compactMap(Chart.init)
        guard !charts.isEmpty else {
            // No chart: a card may still show its count as text (a head count, or a percent on some
            // campuses), else the page is not what it should be.
            if let shown = FusionPage.occupancyCountText(in: page) {
                if let percent = FusionPage.percent(in: shown) { return .percentOnly(percent) }
                if let people = FusionPage.headCount(in: shown), people >= 0 {
                    return OccupancyReading(
                        occupancy: people, capacity: maxOccupancy(in: page) ?? facility.capacity)
                }
            }
            if let percent = FusionPage.currentOccupancyPercent(in: page) { return .percentOnly(percent) }
            throw FusionPage.emptyPageProblem(page)
        }
        let wanted = facility.id.lowercased()
        let mine = charts.filter { $0.facilityID == wanted }
        guard !mine.isEmpty else {
            // Charts without a recognisable facility ID at all: a page of an unknown shape.
            if charts.allSatisfy({ $0.facilityID == nil }), charts.count <= 2 {
                return try reading(from: charts, page: page, facility: facility)
            }
            throw .otherFacility(id: facility.id)
        }
        return try reading(from: mine, page: page, facility: facility)
    }

    private static func reading(from charts: [Chart], page: String, facility: Facility)
        throws(OccupancyPageProblem) -> OccupancyReading
    {
        let values = try charts.map { chart throws(OccupancyPageProblem) in try chart.values() }
        guard let first = values.first else { throw .noNumbers }
        for other in values.dropFirst() {
            if other.occupancy != first.occupancy {
                throw .inconsistent(
                    "\(first.occupancy) people on one chart, \(other.occupancy) on the small-screen copy")
            }
            if let one = first.remaining, let two = other.remaining, one != two {
                throw .inconsistent("\(one) places left on one chart, \(two) on the small-screen copy")
            }
        }
        let capacity = maxOccupancy(in: page) ?? facility.capacity
        return OccupancyReading(occupancy: first.occupancy, remaining: first.remaining, capacity: capacity)
    }

    /// The percent a percent-only card shows: its `.occupancy-count`, else the screen-reader text
    /// `Current Occupancy: P%`.
    static func shownPercent(in page: String) -> Int? {
        FusionPage.occupancyCountText(in: page).flatMap(FusionPage.percent(in:))
            ?? FusionPage.currentOccupancyPercent(in: page)
    }

    /// `Max Occupancy: 1200` or `Max Occupancy: <strong>1,200</strong>`.
    static func maxOccupancy(in page: String) -> Int? {
        guard let label = page.range(ignoringCaseOf: "Max Occupancy") else { return nil }
        var rest = page[label.upperBound...].prefix(200)
        rest = rest.drop { $0 == ":" || $0.isWhitespace }
        // Skip opening tags such as <strong> or <span class="...">.
        while rest.first == "<", let close = rest.firstIndex(of: ">") {
            rest = rest[rest.index(after: close)...].drop { $0.isWhitespace }
        }
        let digits = rest.prefix {
            $0.isNumber || $0 == "," || $0 == "'" || $0 == "\u{202F}" || $0 == "\u{A0}"
        }
        guard let value = number(String(digits)), value > 0 else { return nil }
        return value
    }

    /// `1,035` → 1035; `-12` → -12; anything else (`closed`) → nil.
    static func number(_ text: String) -> Int? {
        let cleaned = text.filter {
            !($0 == "," || $0 == "'" || $0 == " " || $0 == "\u{202F}" || $0 == "\u{A0}" || $0 == "_")
        }
        return Int(cleaned)
    }

    private struct Chart {
        var facilityID: String?
        var attributes: [String: String]

        init?(_ tag: HTMLTags.Tag) {
            let id = tag.attributes["id"]?.lowercased() ?? ""
            let isChart =
                id.hasPrefix("occupancychart") || (tag.attributes["class"] ?? "").contains("occupancy-chart")
                || tag.attributes["data-occupancy"] != nil
            guard isChart else { return nil }
            attributes = tag.attributes
            var rest = Substring(id)
            if rest.hasPrefix("occupancychart-") {
                rest = rest.dropFirst("occupancychart-".count)
            } else {
                rest = ""
            }
            if rest.hasSuffix("-sm") { rest = rest.dropLast(3) }
            facilityID = rest.isEmpty ? nil : String(rest)
        }

        func values() throws(OccupancyPageProblem) -> Values {
            guard let occupancyText = attributes["data-occupancy"]?.trimmed else {
                throw .noNumbers
            }
            guard let occupancy = OccupancyPageParser.number(occupancyText) else {
                throw .notANumber(occupancyText)
            }
            guard occupancy >= 0 else { throw .notANumber(occupancyText) }
            let remaining = attributes["data-remaining"].flatMap { OccupancyPageParser.number($0) }
            return Values(occupancy: occupancy, remaining: remaining)
        }
    }

    private struct Values {
        var occupancy: Int
        var remaining: Int?
    }
}

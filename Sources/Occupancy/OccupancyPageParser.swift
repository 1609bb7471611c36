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
        return try FusionCard.read(
            page, facilityID: facility.id, prefersPercent: facility.measure == .percent
        )
        .reading(fallbackCapacity: facility.capacity)
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
}

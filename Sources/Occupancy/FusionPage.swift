import FoundationEssentials
import Markup
import TextSearch

/// The full Innosoft Fusion occupancy page (`GET <base>/FacilityOccupancy`, ARCHITECTURE §12): its facility
/// cards, the page-level reasons it may hold no numbers, and the source's own "last updated" time.
///
/// Each card is an element with `data-facilityid="<uuid>"`; everything up to the next card with another ID
/// belongs to it (the chart, its `-sm` copy, `Max Occupancy`, `.occupancy-count`).
public enum FusionPage {
    /// One facility card: its ID and its stretch of the page.
    public struct Card: Sendable, Equatable {
        /// The platform's facility ID, lower case.
        public var id: String
        /// The card's HTML, up to the next card.
        public var html: String
    }

    /// The cards in page order, one per ID.
    public static func cards(in page: String) -> [Card] {
        var anchors: [(id: String, start: String.Index)] = []
        var searchFrom = page.startIndex
        while let found = page.range(ignoringCaseOf: "data-facilityid", from: searchFrom) {
            searchFrom = found.upperBound
            var rest = page[found.upperBound...].drop { $0.isWhitespace }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            let quote = rest.first
            if quote == "\"" || quote == "'" { rest = rest.dropFirst() }
            let value = rest.prefix { $0.isHexDigit || $0 == "-" }
            guard value.count >= 8 else { continue }
            anchors.append((String(value).lowercased(), found.lowerBound))
        }
        var seen = Set<String>()
        var cards: [Card] = []
        for (position, anchor) in anchors.enumerated() {
            guard seen.insert(anchor.id).inserted else { continue }
            // The card's start: back to the `<` of the tag that carries the attribute.
            let tagStart = page[..<anchor.start].lastIndex(of: "<") ?? anchor.start
            let end = anchors[(position + 1)...].first { $0.id != anchor.id }?.start ?? page.endIndex
            let endTag = page[..<end].lastIndex(of: "<") ?? end
            cards.append(Card(id: anchor.id, html: String(page[tagStart..<max(endTag, anchor.start)])))
        }
        return cards
    }

    /// One facility's reading off the full page (or a fragment): its card when the page has cards, else
    /// the chart whose id names it.
    ///
    /// - Throws: why the page holds no numbers for it: a waiting room, a sign-in page, an empty page, a
    ///   JavaScript shell, a page without this facility, a word instead of a number.
    public static func reading(in page: String, for facility: Facility) throws(OccupancyPageProblem)
        -> OccupancyReading
    {
        try readings(in: page, for: [facility])[0].get()
    }

    /// Every facility's reading off one page, in order: the page is checked and cut into cards once.
    public static func readings(in page: String, for facilities: [Facility])
        -> [Result<OccupancyReading, OccupancyPageProblem>]
    {
        if let problem = pageProblem(page) { return facilities.map { _ in .failure(problem) } }
        let cards = cards(in: page)
        let byID = Dictionary(cards.map { ($0.id, $0) }) { first, _ in first }
        return facilities.map { facility in
            do throws(OccupancyPageProblem) {
                if let card = byID[facility.id.lowercased()] {
                    return .success(
                        try OccupancyPageParser.parse(card.html, for: facility, checkedPage: true))
                }
                if !cards.isEmpty { throw .otherFacility(id: facility.id) }
                return .success(try OccupancyPageParser.parse(page, for: facility, checkedPage: true))
            } catch {
                return .failure(error)
            }
        }
    }

    /// A reason the whole page cannot be the occupancy page, whatever it contains: a waiting room, or a
    /// page that opens with a sign-in. `nil` when the page may hold numbers.
    public static func pageProblem(_ page: String) -> OccupancyPageProblem? {
        let waitingRoomMarks = ["queue-fair", "queue-it", "queueit", "waiting room", "you are now in line"]
        if waitingRoomMarks.contains(where: { page.range(ignoringCaseOf: $0) != nil }) { return .waitingRoom }
        if let title = title(of: page)?.lowercased(), isSignIn(title) { return .signInPage }
        let text = HTMLText.plainText(fromHTML: String(page.prefix(4096))).lowercased()
        if isSignIn(String(text.prefix(40))) { return .signInPage }
        return nil
    }

    /// Why a page with no chart at all holds no numbers: a sign-in form, a maintenance notice, an empty
    /// page, a page that needs JavaScript, or just no numbers.
    public static func emptyPageProblem(_ page: String) -> OccupancyPageProblem {
        let lowered = page.lowercased()
        if lowered.contains("type=\"password\"") || lowered.contains("type='password'")
            || lowered.contains("type=password") || lowered.contains("sign in") || lowered.contains("log in")
            || lowered.contains("login")
        {
            return .signInPage
        }
        if lowered.contains("temporarily unavailable") || lowered.contains("maintenance")
            || lowered.contains("service unavailable")
        {
            return .temporarilyUnavailable
        }
        let text = HTMLText.plainText(fromHTML: page).trimmed
        if lowered.contains("enable javascript") || lowered.contains("requires javascript")
            || (lowered.contains("<script") && text.count < 200)
        {
            return .javaScriptShell
        }
        if text.isEmpty { return .emptyPage }
        return .noNumbers
    }

    /// The source's own time of its numbers, `#last-update` ("2:56 PM") or "Showing results from 4:55 PM",
    /// as a local hour and minute.
    public static func lastUpdated(in page: String) -> (hour: Int, minute: Int)? {
        var candidates: [Substring] = []
        if let marker = page.range(ignoringCaseOf: "id=\"last-update\"")
            ?? page.range(ignoringCaseOf: "id='last-update'") ?? page.range(ignoringCaseOf: "id=last-update"),
            let close = page[marker.upperBound...].firstIndex(of: ">")
        {
            candidates.append(page[page.index(after: close)...].prefix(40))
        }
        if let marker = page.range(ignoringCaseOf: "Showing results from") {
            candidates.append(page[marker.upperBound...].prefix(40))
        }
        // The clock may follow words or a date: `Last Updated: 11/21/2026 10:05 AM`.
        for candidate in candidates {
            var rest = candidate
            while let digit = rest.firstIndex(where: { $0.isASCII && $0.isNumber }) {
                let start = rest[digit...]
                if rest[..<digit].last.map({ !($0.isASCII && $0.isNumber) }) ?? true,
                    let found = clock(in: start)
                {
                    return found
                }
                rest = start.drop { $0.isASCII && $0.isNumber }
            }
        }
        return nil
    }

    /// `2:56 PM`, `14:56`, `12:05 am` at the start of `text`.
    static func clock(in text: Substring) -> (hour: Int, minute: Int)? {
        let hourDigits = text.prefix { $0.isASCII && $0.isNumber }
        var rest = text.dropFirst(hourDigits.count)
        guard let hour = Int(hourDigits), rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        let minuteDigits = rest.prefix { $0.isASCII && $0.isNumber }
        guard minuteDigits.count == 2, let minute = Int(minuteDigits), minute < 60 else { return nil }
        rest = rest.dropFirst(2).drop { $0 == " " || $0 == "\u{A0}" }
        let suffix = rest.prefix(2).lowercased()
        switch suffix {
        case "am", "pm":
            guard (1...12).contains(hour) else { return nil }
            return ((hour % 12) + (suffix == "pm" ? 12 : 0), minute)
        default:
            guard hour < 24 else { return nil }
            return (hour, minute)
        }
    }

    /// The text of the first `.occupancy-count` element (`45%`, `<strong>120</strong>`), trimmed.
    static func occupancyCountText(in html: String) -> String? {
        for name in ["p", "span", "div", "strong"] {
            for tag in HTMLTags.find(name, in: html)
            where (tag.attributes["class"] ?? "").split(separator: " ").contains("occupancy-count") {
                guard let close = html.range(ignoringCaseOf: "</\(name)>", from: tag.end) else { continue }
                let text = HTMLText.plainText(fromHTML: String(html[tag.end..<close.lowerBound])).trimmed
                if !text.isEmpty { return text }
            }
        }
        return nil
    }

    /// The head count in a card's `.occupancy-count` text: `120`, `1,035`, `Current: 120`; `nil` when
    /// the text holds no number, or more than one.
    static func headCount(in text: String) -> Int? {
        let tokens = text.split { !($0.isASCII && $0.isNumber) && $0 != "," }.filter {
            $0.contains { $0.isNumber }
        }
        guard tokens.count == 1, let value = OccupancyPageParser.number(String(tokens[0])) else { return nil }
        return value
    }

    /// `45%`, `45 %` or `Current Occupancy: 45%` → 45: the number just before the sign.
    static func percent(in text: String) -> Int? {
        guard let sign = text.firstIndex(of: "%") else { return nil }
        let before = text[..<sign].trimmed
        let digits = before.reversed().prefix { $0.isASCII && $0.isNumber }
        guard
            digits.count == before.count
                || before.dropLast(digits.count).last.map({ !$0.isLetter && $0 != "." && $0 != "," }) == true,
            let value = Int(String(digits.reversed())), (0...100).contains(value)
        else { return nil }
        return value
    }

    /// `Current Occupancy: 17%` or `Current Occupancy: <strong>42%</strong>` → the percent.
    static func currentOccupancyPercent(in html: String) -> Int? {
        guard let label = html.range(ignoringCaseOf: "Current Occupancy") else { return nil }
        var rest = html[label.upperBound...].prefix(120).drop { $0 == ":" || $0.isWhitespace }
        while rest.first == "<", let close = rest.firstIndex(of: ">") {
            rest = rest[rest.index(after: close)...].drop { $0.isWhitespace }
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard rest.dropFirst(digits.count).drop(while: { $0 == " " }).first == "%" else { return nil }
        return Int(digits).flatMap { (0...100).contains($0) ? $0 : nil }
    }

    private static func title(of page: String) -> String? {
        guard let open = page.range(ignoringCaseOf: "<title"),
            let start = page[open.upperBound...].firstIndex(of: ">"),
            let close = page.range(ignoringCaseOf: "</title>", from: start)
        else { return nil }
        return HTMLText.plainText(fromHTML: String(page[page.index(after: start)..<close.lowerBound]))
    }

    private static func isSignIn(_ text: String) -> Bool {
        let trimmed = text.trimmed
        return ["sign in", "sign-in", "log in", "login", "single sign-on", "sign on"].contains {
            trimmed.hasPrefix($0)
        }
    }
}

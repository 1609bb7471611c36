import FoundationEssentials
import Markup
import TextSearch

/// A facility card found on the full occupancy page.
public struct DiscoveredFacility: Sendable, Equatable {
    /// The platform's facility ID.
    public var id: String
    /// The card's heading, or ``unnamed`` for a card without one.
    public var name: String
    /// `Max Occupancy`, when the card shows it.
    public var capacity: Int?
    /// Current occupancy, when the card shows a head count.
    public var occupancy: Int?
    /// People, or percent only (the card shows `45%` and no head count).
    public var measure: OccupancyMeasure = .people
    /// Percent full, when the card shows only a percent.
    public var percent: Int?

    /// The name of a card with no heading.
    public static let unnamed = "(no name)"
}

/// Lists the facility cards of the full occupancy page (`GET …/facilityoccupancy`), so a changed ID can be
/// put in the config file without a new release.
///
/// Each card is an element with `data-facilityid="<uuid>"`; its name is the first heading after it
/// (`<h2><strong>McComas Hall</strong></h2>` on Innosoft Fusion).
public enum FacilityDiscovery {
    /// The cards in page order, one per ID.
    public static func parse(_ page: String) -> [DiscoveredFacility] {
        FusionPage.cards(in: page).map { card in
            let block = card.html
            let chart = HTMLTags.find("canvas", in: block).first { $0.attributes["data-occupancy"] != nil }
            let counted = chart?.attributes["data-occupancy"].flatMap {
                OccupancyPageParser.number($0.trimmed)
            }
            let remaining = chart?.attributes["data-remaining"].flatMap {
                OccupancyPageParser.number($0.trimmed)
            }
            // Without `Max Occupancy`, the chart's people and places left add up to it (UCSC, Waterloo);
            // not when the site clamps places left at 0 over capacity.
            let sum = counted.flatMap { people in
                remaining.flatMap { $0 != 0 && people + $0 > 0 ? people + $0 : nil }
            }
            let shown = FusionPage.occupancyCountText(in: block)
            // A percentage shown and no chart: a percent-only page (TMU, Syracuse).
            let shownPercent = chart == nil ? shown.flatMap(FusionPage.percent(in:)) : nil
            return DiscoveredFacility(
                id: card.id, name: heading(in: block).map(withoutNumbering) ?? DiscoveredFacility.unnamed,
                capacity: OccupancyPageParser.maxOccupancy(in: block) ?? (shownPercent == nil ? sum : nil),
                occupancy: shownPercent == nil ? counted ?? shown.flatMap(FusionPage.headCount(in:)) : nil,
                measure: shownPercent == nil ? .people : .percent,
                percent: shownPercent)
        }
    }

    /// `3. Bouldering Wall` → `Bouldering Wall` (some campuses number their cards).
    static func withoutNumbering(_ name: String) -> String {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3 else { return name }
        let rest = name.dropFirst(digits.count)
        guard rest.first == "." || rest.first == ")" else { return name }
        let stripped = rest.dropFirst().trimmed
        return stripped.isEmpty ? name : stripped
    }

    private static func heading(in block: String) -> String? {
        for level in 1...5 {
            guard let open = block.range(ignoringCaseOf: "<h\(level)"),
                let close = block.range(ignoringCaseOf: "</h\(level)>", from: open.upperBound),
                let contentStart = block[open.upperBound..<close.lowerBound].firstIndex(of: ">")
            else { continue }
            let text = HTMLText.plainText(
                fromHTML: String(block[block.index(after: contentStart)..<close.lowerBound]))
            let name = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            if !name.isEmpty { return name }
        }
        return nil
    }
}

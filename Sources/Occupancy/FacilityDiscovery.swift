import FoundationEssentials
import Markup
import TextSearch

/// A facility card found on the full occupancy page.
public struct DiscoveredFacility: Sendable, Equatable {
    /// The platform's facility ID.
    public var id: String
    /// The card's heading.
    public var name: String
    /// `Max Occupancy`, when the card shows it.
    public var capacity: Int?
    /// Current occupancy, when the card shows it.
    public var occupancy: Int?
}

/// Lists the facility cards of the full occupancy page (`GET …/facilityoccupancy`), so a changed ID can be
/// put in the config file without a new release.
///
/// Each card is an element with `data-facilityid="<uuid>"`; its name is the first heading after it
/// (`<h2><strong>McComas Hall</strong></h2>` on Innosoft Fusion).
public enum FacilityDiscovery {
    /// The cards in page order, one per ID.
    public static func parse(_ page: String) -> [DiscoveredFacility] {
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
        var facilities: [DiscoveredFacility] = []
        for (position, anchor) in anchors.enumerated() {
            guard seen.insert(anchor.id).inserted else { continue }
            let end = anchors[(position + 1)...].first { $0.id != anchor.id }?.start ?? page.endIndex
            let block = String(page[anchor.start..<end])
            let occupancy = HTMLTags.find("canvas", in: block).compactMap { $0.attributes["data-occupancy"] }
                .first
            facilities.append(
                DiscoveredFacility(
                    id: anchor.id, name: heading(in: block) ?? "(no name)",
                    capacity: OccupancyPageParser.maxOccupancy(in: block),
                    occupancy: occupancy.flatMap(OccupancyPageParser.number)))
        }
        return facilities
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

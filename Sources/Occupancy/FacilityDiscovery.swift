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
    /// The building a vendor's zone belongs to (GoBoard's `FacilityName`); `nil` for a Fusion card.
    public var group: String?
    /// The vendor flags the zone closed (GoBoard `IsClosed`, Waitz `isOpen: false`), whatever count it
    /// still carries.
    public var closed = false

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
            // The card read as `occupancy` reads it; a card without a number is still listed.
            let shown = try? FusionCard.read(card.html, facilityID: card.id)
            var percent: Int?
            var occupancy: Int?
            switch shown?.shown {
            case .percent(let value): percent = value
            case .people(let value, _): occupancy = value
            case nil: break
            }
            return DiscoveredFacility(
                id: card.id, name: heading(in: card.html).map(withoutNumbering) ?? DiscoveredFacility.unnamed,
                capacity: shown?.capacity ?? OccupancyPageParser.maxOccupancy(in: card.html),
                occupancy: occupancy, measure: shown?.measure ?? .people, percent: percent)
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

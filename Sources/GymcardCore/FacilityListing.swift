import JSONOutput
import Occupancy
import TerminalText

/// What `facilities` lists: the configured facilities, or (`--discover`) every card on the occupancy
/// page with the key it is configured as; as a table or JSON.
public struct FacilityListing: Sendable {
    /// A facility in the JSON; `key` is the configured key (null for a facility not configured).
    struct Row: Encodable, Sendable {
        @ExplicitNull var key: String?
        var name: String
        var id: String
        @ExplicitNull var capacity: Int?
        var occupancy: Int?
    }

    private let rows: [Row]
    private let discovered: Bool

    /// The facilities of `settings`.
    public init(configured settings: OccupancySettings) {
        rows = settings.facilities.map { Row(key: $0.key, name: $0.name, id: $0.id, capacity: $0.capacity) }
        discovered = false
    }

    /// The cards `found` on the page, each with the key `settings` configure it as (by ID, ignoring case).
    public init(found: [DiscoveredFacility], settings: OccupancySettings) {
        let configured = Dictionary(settings.facilities.map { ($0.id.lowercased(), $0.key) }) { first, _ in
            first
        }
        rows = found.map {
            Row(
                key: configured[$0.id.lowercased()], name: $0.name, id: $0.id, capacity: $0.capacity,
                occupancy: $0.occupancy)
        }
        discovered = true
    }

    /// A JSON array.
    public var json: String { JSONText.line(rows, fallback: "[]") }

    /// A table.
    public var text: String {
        guard discovered else {
            return TextTable.text(
                header: ["KEY", "NAME", "ID", "CAPACITY"],
                rows: rows.map { [$0.key ?? "", $0.name, $0.id, "\($0.capacity ?? 0)"] })
        }
        return TextTable.text(
            header: ["ID", "NAME", "CAPACITY", "CONFIGURED AS"],
            rows: rows.map { [$0.id, $0.name, $0.capacity.map { "\($0)" } ?? "-", $0.key ?? ""] })
    }
}

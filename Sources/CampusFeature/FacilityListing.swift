import Fetching
import GymcardCore
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
        /// The building a vendor's zone belongs to (GoBoard's `FacilityName`); absent for Fusion.
        var group: String?
    }

    private let rows: [Row]
    private let discovered: Bool

    /// The facilities of `settings`.
    public init(configured settings: OccupancySettings) {
        rows = settings.facilities.map {
            Row(key: $0.key, name: $0.name, id: $0.id, capacity: $0.capacity, group: $0.group)
        }
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
                occupancy: $0.occupancy, group: $0.group)
        }
        discovered = true
    }

    /// A JSON array.
    public var json: String { JSONText.line(rows, fallback: "[]") }

    /// A table.
    public var text: String { text(columns: nil) }

    /// A table fitted to `columns` (`nil`, no limit): when it is wider, the capacity goes first (the
    /// table is 82 columns with it, 72 without: the IDs, what `facilities` is for, stay on an 80-column
    /// terminal), then the ID (`facilities --json` still has both); names and keys stay.
    public func text(columns: Int?) -> String {
        var all: [(header: String, cells: [String])]
        if discovered {
            all = [
                ("ID", rows.map(\.id)), ("NAME", rows.map(\.name)),
                ("CAPACITY", rows.map { $0.capacity.map { "\($0)" } ?? "-" }),
                ("CONFIGURED AS", rows.map { $0.key ?? "" }),
            ]
        } else {
            all = [
                ("KEY", rows.map { $0.key ?? "" }), ("NAME", rows.map(\.name)), ("ID", rows.map(\.id)),
                ("CAPACITY", rows.map { "\($0.capacity ?? 0)" }),
            ]
        }
        if rows.contains(where: { $0.group != nil }) {
            // After the name: a vendor's zones are read by building (Purdue's 35 under one, UW's two).
            all.insert(("GROUP", rows.map { $0.group ?? "" }), at: 2)
        }
        var shown = all
        for dropped in ["CAPACITY", "GROUP", "ID"] {
            let table = Self.table(shown)
            guard let columns, table.split(separator: "\n").contains(where: { $0.count > columns }) else {
                return table
            }
            shown.removeAll { $0.header == dropped }
        }
        return Self.table(shown)
    }

    private static func table(_ columns: [(header: String, cells: [String])]) -> String {
        TextTable.text(
            header: columns.map(\.header),
            rows: (columns.first?.cells.indices ?? 0..<0).map { row in columns.map { $0.cells[row] } })
    }
}

extension FacilityListing {
    /// `facilities --discover`: every facility card on the campus's full occupancy page (every zone a
    /// GoBoard or Waitz campus lists), and a note for each configured facility the page no longer shows (naming the config file at `configPath`).
    public static func discover(_ settings: OccupancySettings, fetcher: Fetcher, configPath: String)
        async throws(CampusPageProblem) -> (listing: FacilityListing, notes: [String])
    {
        let found =
            settings.vendor == .fusion
            ? try await CampusPage.discover(settings.page, fetcher: fetcher)
            : try await CampusPage.zones(settings.vendor, at: settings.page, fetcher: fetcher)
        return (
            FacilityListing(found: found, settings: settings),
            CampusPage.missing(from: found, settings: settings, configPath: configPath)
        )
    }
}

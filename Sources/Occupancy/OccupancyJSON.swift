import FoundationEssentials
import JSONOutput
import OpeningHours

/// The `--json` schema (DESIGN §2): `{"observedAt", "facilities": [{"key", "name", "occupancy", "remaining",
/// "capacity", "percent", "status", "observedAt"}]}`, times in ISO 8601 UTC. Values are `null` for an
/// unavailable facility; `problem` says why a value is not fresh; `demo` is true for sample values;
/// `open` is true, false or null (unknown) from the opening hours, with `opensAt` and `closesAt` when
/// known.
public enum OccupancyJSON {
    struct Document: Encodable {
        var observedAt: String
        var demo: Bool
        var facilities: [Entry]
    }

    struct Entry: Encodable {
        var key: String
        var name: String
        @ExplicitNull var occupancy: Int?
        @ExplicitNull var remaining: Int?
        var capacity: Int
        @ExplicitNull var percent: Int?
        var status: FacilityStatus.Status
        @ExplicitNull var observedAt: String?
        @ExplicitNull var problem: String?
        @ExplicitNull var open: Bool?
        @ExplicitNull var opensAt: String?
        @ExplicitNull var closesAt: String?
    }

    /// The report as one line of JSON (for `--json`, and JSON lines in `--watch`).
    public static func line(_ report: OccupancyReport) -> String {
        let document = Document(
            observedAt: timestamp(report.observedAt), demo: report.isDemo,
            facilities: report.facilities.map { status in
                Entry(
                    key: status.facility.key, name: status.facility.name,
                    occupancy: status.reading?.occupancy,
                    remaining: status.reading?.remaining,
                    capacity: status.reading?.capacity ?? status.facility.capacity,
                    percent: status.reading?.percent, status: status.status,
                    observedAt: status.observedAt.map(timestamp),
                    problem: status.problem, open: status.opening.isOpen,
                    opensAt: status.opening.opensAt.map(timestamp),
                    closesAt: status.opening.closesAt.map(timestamp))
            })
        return encode(document)
    }

    /// `2026-11-21T15:04:05Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func encode(_ value: some Encodable) -> String {
        JSONText.line(value)
    }
}

import FoundationEssentials
import JSONOutput
import Occupancy
import OpeningHours

/// The `--json` schema (ARCHITECTURE §2): `{"observedAt", "facilities": [{"key", "name", "occupancy", "remaining",
/// "capacity", "percent", "measure", "status", "observedAt"}]}`, times in ISO 8601 UTC. Values are `null`
/// for an unavailable facility; `measure` is `people`, or `percent` for a page that shows only a
/// percentage (then `occupancy`, `remaining` and `capacity` are `null`: no head count is invented);
/// `problem` says why a value is not fresh; `demo` is true for sample values;
/// `open` is true, false or null (unknown) from the opening hours, with `opensAt` and `closesAt` when
/// known; `sourceTime` is the source's own time of the value (a Fusion page's "last updated", a GoBoard
/// zone's `LastUpdatedDateAndTime`), null when it gives none; for a GoBoard or Waitz campus `percent` can
/// be over 100 (124 for 31 of 25).
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
        @ExplicitNull var capacity: Int?
        @ExplicitNull var percent: Int?
        var measure: OccupancyMeasure
        var status: FacilityStatus.Status
        @ExplicitNull var observedAt: String?
        @ExplicitNull var sourceTime: String?
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
                    occupancy: counted(status)?.occupancy,
                    remaining: counted(status)?.remaining,
                    capacity: status.reading.map { $0.countsPeople ? $0.capacity : nil }
                        ?? (status.facility.measure == .people ? status.facility.capacity : nil),
                    percent: status.reading.map(report.percent),
                    measure: status.reading?.measure ?? status.facility.measure, status: status.status,
                    observedAt: status.observedAt.map(timestamp),
                    sourceTime: status.sourceTime.map(timestamp),
                    problem: status.problem, open: status.opening.isOpen,
                    opensAt: status.opening.opensAt.map(timestamp),
                    closesAt: status.opening.closesAt.map(timestamp))
            })
        return encode(document)
    }

    /// The reading when it counts people.
    private static func counted(_ status: FacilityStatus) -> OccupancyReading? {
        status.reading.flatMap { $0.countsPeople ? $0 : nil }
    }

    /// `2026-11-21T15:04:05Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func encode(_ value: some Encodable) -> String {
        JSONText.line(value)
    }
}

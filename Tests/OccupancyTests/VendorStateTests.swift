import CivilTime
import Foundation
import Occupancy
import OccupancyViews
import Testing

@Suite("The state file keeps a vendor reading's source time and closed flag")
struct VendorStateTests {
    @Test("sourceTime and closedAtSource round-trip; a file from before vendors still reads")
    func roundTrip() throws {
        let observed = Date(timeIntervalSince1970: 1_770_418_867)
        let source = Date(timeIntervalSince1970: 1_770_351_097)
        var state = OccupancyState()
        state.entries["trec"] = OccupancyState.Entry(
            id: "5994", reading: OccupancyReading(occupancy: 4, capacity: 300), observedAt: observed,
            sourceTime: source, closedAtSource: true)
        state.entries["scifres"] = OccupancyState.Entry(
            id: "5993", reading: OccupancyReading(occupancy: 31, capacity: 25), observedAt: observed)
        let bytes = state.encoded()
        #expect(try OccupancyState.decode(bytes) == state)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"version\" : 1"))
        // Absent, not false or null, where there is nothing to say: files stay as they were.
        #expect(text.components(separatedBy: "closedAtSource").count == 2)
        #expect(text.components(separatedBy: "sourceTime").count == 2)

        let old =
            #"{"version": 1, "facilities": {"mccomas": {"id": "x", "occupancy": 230, "remaining": 370, "capacity": 600, "observedAt": "2026-11-21T17:00:00Z"}}}"#
        let read = try OccupancyState.decode(Array(old.utf8))
        #expect(read.entries["mccomas"]?.sourceTime == nil)
        #expect(read.entries["mccomas"]?.closedAtSource == false)
    }

    @Test("the views: over capacity as it is for a vendor campus, clamped for Fusion; no figure is no figure")
    func views() {
        let now = Date(timeIntervalSince1970: 1_770_418_867)
        let scifres = Facility(
            key: "scifres", name: "Scifres", shortName: "Scifres", id: "5993", capacity: 25, segments: 8)
        let pool = Facility(
            key: "pool", name: "Pool", shortName: "Pool", id: "8001", capacity: 40, segments: 8)
        var status = FacilityStatus(
            facility: scifres, status: .ok, reading: OccupancyReading(occupancy: 31, capacity: 25),
            observedAt: now,
            problem: nil)
        status.sourceTime = now.addingTimeInterval(-3 * 3600 - 60)
        var missing = FacilityStatus(
            facility: pool, status: .unavailable, reading: nil, observedAt: nil, problem: "no capacity")
        missing.noFigure = true
        var report = OccupancyReport(observedAt: now, facilities: [status, missing])
        let fusion = OccupancyTextView(columns: nil, colour: nil, now: now, zone: .fixed(hours: 0)).lines(
            report)
        #expect(fusion[0].contains("100%"))
        report.showsOverCapacity = true
        let lines = OccupancyTextView(columns: nil, colour: nil, now: now, zone: .fixed(hours: 0)).lines(
            report)
        #expect(lines[0].contains("124%") && lines[0].hasSuffix("count from 3 h ago"))
        #expect(lines[1].hasSuffix("no figure"))
        let json = OccupancyJSON.line(report)
        #expect(json.contains("\"percent\":124"))
        #expect(json.contains("\"sourceTime\":\"2026-02-06T20:00:07Z\""))
        #expect(StatusBarFormats.waybar(report, now: now, zone: .fixed(hours: 0)).contains("Pool: no figure"))
    }
}

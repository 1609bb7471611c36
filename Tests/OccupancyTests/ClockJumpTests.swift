import Fetching
import FetchingCurl
import Foundation
import OccupancyViews
import Storage
import Synchronization
import TestServer
import TestSupport
import Testing

@testable import Occupancy

/// 2026-11-20 15:00 UTC: "now" in these tests.
private let now = Date(timeIntervalSince1970: 1_795_186_800)

private func entry(_ facility: Facility, occupancy: Int, at offset: Double) -> OccupancyState.Entry {
    OccupancyState.Entry(
        id: facility.id, reading: OccupancyReading(occupancy: occupancy, capacity: facility.capacity),
        observedAt: now.addingTimeInterval(offset))
}

@Suite("Readings dated by a clock that was wrong (ahead at boot, or set back)")
struct ClockJumpTests {
    let mccomas = Facility.virginiaTech[1]

    @Test(
        "a reading just taken replaces a stored one dated more than a minute ahead of it, and an older one",
        arguments: [
            // (stored entry's time relative to the new reading, whether the new reading is kept)
            (-600, true),  // older: replaced, as always
            (30, false),  // two processes saving at once: the later stamp stays
            (60, false),
            (120, true),  // dated ahead by a clock that was wrong
            (5 * 86_400, true),
        ] as [(Double, Bool)])
    func merge(storedOffset: Double, replaced: Bool) {
        var state = OccupancyState(entries: [
            "mccomas": entry(mccomas, occupancy: 230, at: storedOffset),
            "war-memorial": entry(Facility.virginiaTech[0], occupancy: 700, at: 7 * 86_400),
        ])
        state.merge(OccupancyState(entries: ["mccomas": entry(mccomas, occupancy: 120, at: 0)]))
        #expect(state.entries["mccomas"]?.reading.occupancy == (replaced ? 120 : 230))
        #expect(state.entries["war-memorial"]?.reading.occupancy == 700, "no new reading: left alone")
    }

    @Test(
        "--cached: current for 15 minutes; older or dated ahead of now is shown stale with its age in words",
        arguments: [
            (0, .ok, nil),
            (-14 * 60, .ok, nil),
            (-17 * 60, .stale, "the stored reading is from 17 min ago"),
            (-3 * 86_400, .stale, "the stored reading is from 3 days ago"),
            (-400 * 86_400, .stale, "the stored reading is from 400 days ago"),
            (30, .ok, nil),
            (
                3 * 3600, .stale,
                "the stored reading is dated 3 h in the future; the clock was wrong when it was read, or is now"
            ),
            (
                6 * 86_400, .stale,
                "the stored reading is dated 6 days in the future; the clock was wrong when it was read, or is now"
            ),
        ] as [(Double, FacilityStatus.Status, String?)])
    func cached(storedOffset: Double, status: FacilityStatus.Status, problem: String?) throws {
        let home = try TemporaryDirectory()
        let stateFile = OccupancyStateFile(directories: XDGDirectories(environment: ["HOME": home.path]))
        try stateFile.save(
            OccupancyState(entries: ["mccomas": entry(mccomas, occupancy: 230, at: storedOffset)]))
        let report = OccupancyMonitor.cached(
            settings: .virginiaTech, stateFile: stateFile, now: now
        ).report
        let shown = report.facilities[1]
        #expect(shown.status == status)
        #expect(shown.reading?.occupancy == 230, "the last reading is shown, however old")
        #expect(shown.problem == problem)
        #expect(report.completeness == .partial, "War Memorial and the wall have nothing stored")
    }

    @Test(
        "the text view and waybar's tooltip say a stale value's age either way, never 'just now' for a future one",
        arguments: [
            (-7 * 60, "7 min ago", "stale"), (-3 * 86_400, "3 days ago", "stale"),
            (45, "45 s in the future", "stale"), (3 * 3600, "3 h in the future", "stale"),
            (2, "just now", "not refreshed"), (-2, "just now", "not refreshed"),
            (-30, "30 s ago", "not refreshed"),
        ] as [(Double, String, String)])
    func ageInWords(storedOffset: Double, words: String, label: String) throws {
        let status = FacilityStatus(
            facility: mccomas, status: .stale, reading: OccupancyReading(occupancy: 230, capacity: 600),
            observedAt: now.addingTimeInterval(storedOffset), problem: "down")
        let report = OccupancyReport(observedAt: now, facilities: [status])
        let line = try #require(OccupancyTextView(columns: 80, colour: nil, now: now).lines(report).first)
        #expect(line.hasSuffix("  \(label) (read \(words))"), "\(line)")
        let waybar = try #require(
            JSONSerialization.jsonObject(with: Data(StatusBarFormats.waybar(report, now: now).utf8))
                as? [String: Any])
        #expect(waybar["tooltip"] as? String == "McComas Hall: 230 of 600 (38%), 370 left, \(words)")
    }

    @Test(
        "across a clock ahead and then set right, each refresh saves its readings and --cached shows the latest"
    )
    func refreshAcrossJumps() async throws {
        let occupancy = Mutex(120)
        let facilities = Facility.virginiaTech
        let server = try await occupancyServer { id in
            fragment(try #require(facilities.first { $0.id == id }), occupancy: occupancy.withLock { $0 })
        }
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        var settings = OccupancySettings.virginiaTech
        settings.endpoint = server.url("/FacilityOccupancy/GetFacilityData")
        let stateFile = OccupancyStateFile(directories: XDGDirectories(environment: ["HOME": home.path]))
        let clock = TestClock(now.addingTimeInterval(6 * 86_400))
        let monitor = OccupancyMonitor(
            settings: settings,
            fetcher: Fetcher(
                client: CurlClient(userAgent: "gymcard/test"),
                policy: FetchPolicy(timeoutSeconds: 30, maximumAttempts: 1)),
            stateFile: stateFile, now: { clock.now })
        // Booted with the clock six days ahead; then NTP sets it right, and the gym fills up.
        #expect(try await monitor.refresh().report.completeness == .fresh)
        clock.advance(-6 * 86_400)
        for (minutes, value) in [(0, 4), (5, 2)] {
            clock.advance(Double(minutes) * 60)
            occupancy.withLock { $0 = value }
            #expect(try await monitor.refresh().report.completeness == .fresh)
            let cached = monitor.cached().report
            #expect(cached.facilities.map(\.status) == [.ok, .ok, .ok])
            #expect(cached.facilities.map { $0.reading?.occupancy } == [value, value, value])
        }
        // The clock jumps ahead again, and back again: the latest reading is still the one kept.
        clock.advance(2 * 3600)
        occupancy.withLock { $0 = 6 }
        _ = try await monitor.refresh()
        clock.advance(-2 * 3600 + 60)
        occupancy.withLock { $0 = 3 }
        _ = try await monitor.refresh()
        #expect(monitor.cached().report.facilities.map { $0.reading?.occupancy } == [3, 3, 3])
        #expect(monitor.cached().report.facilities.map(\.status) == [.ok, .ok, .ok])
    }
}

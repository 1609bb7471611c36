import CivilTime
import Fetching
import Foundation
import Occupancy
import OpeningHours
import Storage
import Synchronization
import TestServer
import TestSupport
import Testing

@Suite("A GoBoard or Waitz campus refreshed by the occupancy monitor")
struct VendorCampusMonitorTests {
    /// The zones of Purdue's over-capacity answer that the test configures, by LocationId.
    static func facility(_ id: String, _ key: String) -> Facility {
        Facility(key: key, name: key, shortName: key, id: id, capacity: 1, segments: 8)
    }

    private func monitor(_ profile: CampusProfile, home: String, now: Date, zone: LocalTimeZone)
        -> OccupancyMonitor
    {
        OccupancyMonitor(
            settings: profile.settings, fetcher: VendorFixtures.fetcher(),
            stateFile: OccupancyStateFile(
                directories: XDGDirectories(environment: ["HOME": home]), campus: profile.name),
            now: { now }, zone: zone)
    }

    /// A GoBoard campus of `facilities` served by `server`, in UTC.
    private func goboard(_ name: String, _ server: LocalServer, _ facilities: [Facility]) -> CampusProfile {
        CampusProfile(
            name: name, base: server.url(""), read: .page, displayType: nil, timeZone: "UTC",
            facilities: facilities, vendor: .goboard(key: CampusSourceTests.purdueKey))
    }

    /// One refresh of `profile` at `seconds` since 1970, in UTC, its state in `home`.
    private func refresh(_ profile: CampusProfile, _ home: TemporaryDirectory, at seconds: Double)
        async throws -> OccupancyMonitor.Refresh
    {
        try await monitor(
            profile, home: home.path, now: Date(timeIntervalSince1970: seconds), zone: .fixed(hours: 0)
        ).refresh()
    }

    @Test(
        "one request for the campus, each zone with its own source time; closed zones closed, over capacity as is",
        .enabled(if: Prerequisite.runs(VendorFixtures.present && VendorFixtures.hasTZData)))
    func goboard() async throws {
        let body = try VendorFixtures.bytes(VendorFixtures.purdueAnswers[2])
        let raw = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
        let requests = Counter()
        let server = try await LocalServer { _ in
            _ = requests.increment()
            return LocalServer.Response.json(body)
        }
        let home = try TemporaryDirectory()
        // Every zone configured, as campus add would, plus one the answer no longer lists.
        let zones = raw.map {
            Self.facility("\($0["LocationId"] as? Int ?? 0)", "zone-\($0["LocationId"] as? Int ?? 0)")
        }
        let profile = CampusProfile(
            name: "purdue", base: server.url(""), read: .page, displayType: nil,
            timeZone: "America/Indiana/Indianapolis", facilities: zones + [Self.facility("1", "gone")],
            vendor: .goboard(key: CampusSourceTests.purdueKey))
        let eastern = try VendorFixtures.zone("America/Indiana/Indianapolis")
        let fetchedAt = Date(timeIntervalSince1970: 1_770_418_867)  // 2026-02-06T23:01:07Z, when it was saved
        let refresh = try await monitor(profile, home: home.path, now: fetchedAt, zone: eastern).refresh()
        #expect(requests.value == 1)
        let statuses = refresh.report.facilities
        #expect(statuses.count == 36)
        #expect(statuses.prefix(35).allSatisfy { $0.status == .ok && $0.sourceTime != nil })
        #expect(Set(statuses.prefix(35).compactMap(\.sourceTime)).count > 20)
        let trec = try #require(
            statuses.first { $0.closedAtSource && $0.reading?.occupancy == 4 })
        #expect(trec.closedAtSource && trec.opening.isClosed && trec.reading?.occupancy == 4)
        #expect(statuses.filter(\.closedAtSource).count == 5)
        #expect(statuses.compactMap(\.reading).filter { $0.unclampedPercent > 100 }.count == 6)
        // Hours that say open do not reopen a zone its source says is closed.
        let open = FacilityHours(days: [:])
        let applied = refresh.report.applying(
            Dictionary(uniqueKeysWithValues: zones.map { ($0.key, open) }), zone: eastern)
        #expect(applied.facilities.filter(\.opening.isClosed).count == 5)
        // The zone no longer listed is unavailable, said in one line.
        #expect(statuses[35].status == .unavailable)
        #expect(refresh.warnings.contains { $0.contains("no longer lists zone 1") })
        #expect(refresh.report.completeness == .partial)
        await server.stop()
    }

    @Test("a zone with no figure shows its last value stale, never 0 %")
    func noFigure() async throws {
        let answers = Mutex([
            "[{\"LocationId\":5,\"LocationName\":\"Pool\",\"TotalCapacity\":40,\"LastCount\":12,\"LastUpdatedDateAndTime\":\"2026-02-06T12:00:00.5\"}]",
            "[{\"LocationId\":5,\"LocationName\":\"Pool\",\"TotalCapacity\":0,\"LastCount\":12,\"LastUpdatedDateAndTime\":\"2026-02-06T13:00:00\"}]",
        ])
        let server = try await LocalServer { _ in
            LocalServer.Response.json(Data(answers.withLock { $0.removeFirst() }.utf8))
        }
        let home = try TemporaryDirectory()
        let profile = goboard("pool", server, [Self.facility("5", "pool")])
        let first = try await refresh(profile, home, at: 1_770_400_000)
        #expect(first.report.facilities[0].reading == OccupancyReading(occupancy: 12, capacity: 40))
        #expect(first.report.facilities[0].sourceTime == Date(timeIntervalSince1970: 1_770_379_200.5))
        let second = try await refresh(profile, home, at: 1_770_400_300)
        #expect(second.report.facilities[0].status == .stale)
        #expect(second.report.facilities[0].reading == OccupancyReading(occupancy: 12, capacity: 40))
        #expect(
            second.warnings == [
                "pool (showing its value from 5 min ago): the source gives no capacity (0), so no percentage"
            ])
        await server.stop()
    }

    @Test("an open zone whose source count is over six hours old is stale; a closed one is closed")
    func oldSourceCount() async throws {
        // Now is 2026-02-06T17:46:40Z: the gym's count is 7 h old, the pool's 1 h, the court's 7 h but closed.
        let server = try await LocalServer { _ in
            LocalServer.Response.json(
                Data(
                    """
                    [{"LocationId":1,"LocationName":"Gym","TotalCapacity":50,"LastCount":20,"IsClosed":false,
                    "LastUpdatedDateAndTime":"2026-02-06T10:46:40"},
                    {"LocationId":2,"LocationName":"Pool","TotalCapacity":50,"LastCount":20,"IsClosed":false,
                    "LastUpdatedDateAndTime":"2026-02-06T16:46:40"},
                    {"LocationId":3,"LocationName":"Court","TotalCapacity":50,"LastCount":20,"IsClosed":true,
                    "LastUpdatedDateAndTime":"2026-02-06T10:46:40"}]
                    """.utf8))
        }
        let home = try TemporaryDirectory()
        let profile = goboard(
            "old", server,
            [Self.facility("1", "gym"), Self.facility("2", "pool"), Self.facility("3", "court")])
        let facilities = try await refresh(profile, home, at: 1_770_400_000).report.facilities
        let (gym, pool, court) = (facilities[0], facilities[1], facilities[2])
        #expect(gym.status == .stale && gym.problem == "the source's count is from 7 h ago", "\(gym)")
        #expect(pool.status == .ok && court.status == .ok && court.opening.isClosed)
        await server.stop()
    }

    @Test("a zone the source closed stays closed in its last value when the next fetch fails")
    func closedStaysClosedWhenStale() async throws {
        let answers = Mutex([
            LocalServer.Response.json(
                Data(
                    "[{\"LocationId\":7,\"LocationName\":\"Tennis\",\"TotalCapacity\":50,\"LastCount\":0,\"IsClosed\":true,\"LastUpdatedDateAndTime\":\"2026-02-06T12:00:00\"}]"
                        .utf8)),
            LocalServer.Response(status: 500, "down"),
        ])
        let server = try await LocalServer { _ in answers.withLock { $0.removeFirst() } }
        let home = try TemporaryDirectory()
        let profile = goboard("tennis", server, [Self.facility("7", "tennis")])
        let first = try await refresh(profile, home, at: 1_770_400_000)
        #expect(first.report.facilities[0].opening.isClosed)
        let second = try await refresh(profile, home, at: 1_770_400_300)
        let tennis = second.report.facilities[0]
        #expect(tennis.status == .stale && tennis.closedAtSource && tennis.opening.isClosed)
        await server.stop()
    }

    @Test("a Waitz campus: the fetch time is the reading's time; closed with people is closed")
    func waitz() async throws {
        let server = try await LocalServer { request in
            request.path == "/live/ucsd-rec"
                ? LocalServer.Response.json(
                    Data(
                        """
                        {"data":[{"id":3,"name":"Outback Climbing Center","people":4,"capacity":30,"isOpen":false,
                        "isAvailable":true,"busyness":14,"percentage":0.14,"subLocs":false}]}
                        """.utf8)) : LocalServer.Response(status: 404, "no")
        }
        let home = try TemporaryDirectory()
        let profile = CampusProfile(
            name: "ucsd", base: server.url(""), read: .page, displayType: nil,
            timeZone: "America/Los_Angeles",
            facilities: [Self.facility("3", "outback")], vendor: .waitz(slug: "ucsd-rec"))
        let now = Date(timeIntervalSince1970: 1_774_975_110)
        let refresh = try await monitor(profile, home: home.path, now: now, zone: .fixed(hours: -7)).refresh()
        let status = refresh.report.facilities[0]
        #expect(status.status == .ok && status.observedAt == now && status.sourceTime == nil)
        #expect(status.closedAtSource && status.opening.isClosed)
        #expect(status.reading == OccupancyReading(occupancy: 4, capacity: 30))
        await server.stop()
    }
}

import CivilTime
import Fetching
import FetchingCurl
import Foundation
import OpeningHours
import Storage
import TestServer
import TestSupport
import TestTime
import Testing

@Suite("Loading hours: the service through a per-day cache, the cache when it fails, then unknown")
struct HoursLoaderTests {
    let zone = LocalTimeZone.usEastern
    let monday = LocalDay(year: 2026, month: 11, day: 23)

    /// A local hours service: every day McComas 6:00–23:00 and War Memorial 6:00–midnight, unless failing.
    final class HoursService: Sendable {
        let failing = Locked(false)
        let requested = Locked<[String]>([])
        let server: LocalServer

        init() async throws {
            let failing = failing
            let requested = requested
            server = try await LocalServer { request in
                requested.withLock { $0.append(request.path) }
                if failing.withLock({ $0 }) { return LocalServer.Response(status: 503, "down") }
                let body =
                    "["
                    + vtUnit(
                        "1", "McComas Hall",
                        rows: [vtRow(open: "06:00", close: "23:00", start: "2026-01-01", end: "2026-12-31")])
                    + ", "
                    + vtUnit(
                        "2", "War Memorial Hall",
                        rows: [vtRow(open: "06:00", close: "00:00", start: "2026-01-01", end: "2026-12-31")])
                    + "]"
                return LocalServer.Response(contentType: "application/json", body)
            }
        }

        var base: URL { server.url("/rshours/Api/NonRestricted/UnitsOpenOnDay") }
    }

    func loader(_ service: HoursService, home: String, now: Date) -> HoursLoader {
        var settings = HoursSettings.virginiaTech
        settings.url = service.base
        return HoursLoader(
            settings: settings, zone: zone,
            cache: HoursCache(directories: XDGDirectories(environment: ["HOME": home])),
            now: now)
    }

    let fetcher = Fetcher(
        client: CurlClient(userAgent: "gymcard/test"),
        policy: FetchPolicy(timeoutSeconds: 30, maximumAttempts: 1))

    @Test("yesterday and today are asked for; a second load within the hour uses the cache")
    func fetchesAndCaches() async throws {
        let service = try await HoursService()
        defer { Task { await service.server.stop() } }
        let home = try TemporaryDirectory()
        let now = zone.date(of: monday, secondOfDay: 12 * 3600)
        let first = loader(service, home: home.path, now: now)
        let days = first.days(from: now, to: now)
        #expect(days == [monday.adding(days: -1), monday])
        let outcome = await first.load(
            ["mccomas", "war-memorial", "bouldering-wall"], days: days, fetcher: fetcher)
        #expect(outcome.warnings.isEmpty)
        #expect(!outcome.isDegraded)
        #expect(
            outcome.hours["mccomas"]?.state(at: now, zone: zone)
                == .open(closesAt: zone.date(of: monday, secondOfDay: 23 * 3600)))
        #expect(outcome.hours["bouldering-wall"]?.state(at: now, zone: zone) ?? .unknown == .unknown)
        #expect(
            service.requested.withLock { $0.sorted() }
                == [
                    "/rshours/Api/NonRestricted/UnitsOpenOnDay/Date/2026-11-22",
                    "/rshours/Api/NonRestricted/UnitsOpenOnDay/Date/2026-11-23",
                ])
        let later = loader(service, home: home.path, now: now.addingTimeInterval(1800))
        #expect(later.daysToFetch(days, for: ["mccomas"]).isEmpty)
        let again = await later.load(["mccomas"], days: days, fetcher: fetcher)
        #expect(service.requested.withLock { $0.count } == 2)
        #expect(again.hours["mccomas"] == outcome.hours["mccomas"])
        // After an hour, yesterday (its night may run into today) and today are asked again; two days
        // later, Sunday's answer is history and stays good for ever.
        let stale = loader(service, home: home.path, now: now.addingTimeInterval(3700))
        #expect(stale.daysToFetch(days, for: ["mccomas"]) == days)
        let wednesday = loader(service, home: home.path, now: now.addingTimeInterval(2 * 86_400))
        #expect(wednesday.daysToFetch(days, for: ["mccomas"]) == [])
    }

    @Test("the service fails: the cached copy of any age, with one warning that says how old")
    func failureWithCache() async throws {
        let service = try await HoursService()
        defer { Task { await service.server.stop() } }
        let home = try TemporaryDirectory()
        let now = zone.date(of: monday, secondOfDay: 12 * 3600)
        let days = [monday.adding(days: -1), monday]
        _ = await loader(service, home: home.path, now: now).load(["mccomas"], days: days, fetcher: fetcher)
        service.failing.withLock { $0 = true }
        let later = loader(service, home: home.path, now: now.addingTimeInterval(5 * 3600))
        let outcome = await later.load(["mccomas"], days: days, fetcher: fetcher)
        #expect(outcome.isDegraded)
        #expect(outcome.warnings.count == 1)
        #expect(outcome.warnings.first?.contains("HTTP 503") == true, "\(outcome.warnings)")
        #expect(
            outcome.warnings.first?.contains("using the copy fetched 5 h ago") == true, "\(outcome.warnings)")
        #expect(outcome.hours["mccomas"]?[monday].isKnown == true)
    }

    @Test("the service fails with nothing cached: unknown (never open), and the warning says so")
    func failureWithoutCache() async throws {
        let service = try await HoursService()
        defer { Task { await service.server.stop() } }
        service.failing.withLock { $0 = true }
        let home = try TemporaryDirectory()
        let now = zone.date(of: monday, secondOfDay: 12 * 3600)
        let hoursLoader = loader(service, home: home.path, now: now)
        let outcome = await hoursLoader.load(
            ["mccomas"], days: hoursLoader.days(from: now, to: now), fetcher: fetcher)
        #expect(outcome.isDegraded)
        #expect(outcome.warnings.first?.hasSuffix("(2 days unknown)") == true, "\(outcome.warnings)")
        #expect(outcome.hours["mccomas"]?.state(at: now, zone: zone) == .unknown)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/.cache/gymcard/hours/2026-11-23.json"))
    }

    @Test("config hours need no network: a facility with weekly hours is answered without a request")
    func configOnly() async throws {
        let service = try await HoursService()
        defer { Task { await service.server.stop() } }
        let home = try TemporaryDirectory()
        var settings = try HoursSettings.resolve(
            configFile: Data(
                #"{"hours": {"facilities": {"bouldering-wall": {"weekly": {"mon": "16:00-22:00", "sun": "closed"}}}}}"#
                    .utf8),
            environment: [:])
        settings.url = service.base
        let now = zone.date(of: monday, secondOfDay: 12 * 3600)
        let hoursLoader = HoursLoader(
            settings: settings, zone: zone,
            cache: HoursCache(directories: XDGDirectories(environment: ["HOME": home.path])), now: now)
        let outcome = await hoursLoader.load(
            ["bouldering-wall"], days: hoursLoader.days(from: now, to: now), fetcher: fetcher)
        #expect(service.requested.withLock { $0.isEmpty })
        #expect(
            outcome.hours["bouldering-wall"]?.state(at: now, zone: zone)
                == .closed(opensAt: zone.date(of: monday, secondOfDay: 16 * 3600)))
    }
}

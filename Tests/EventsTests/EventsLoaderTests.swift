import Events
import EventsFeed
import Fetching
import FetchingCurl
import Foundation
import Storage
import TestServer
import TestSupport
import Testing

@Suite("Loading events: feed, cache and fallback, against a local server")
struct EventsLoaderTests {
    let now = Date(timeIntervalSince1970: 1_795_287_600)

    func loader(_ server: FeedServer, home: String, at time: Date? = nil) -> EventsLoader {
        EventsLoader(
            settings: EventsSettings(url: server.server.url("/organization/recsports/events.rss")),
            cache: EventsCache(directories: XDGDirectories(environment: ["HOME": home])), now: time ?? now)
    }

    func fetch(_ loader: EventsLoader) async throws(EventsUnavailable) -> EventsLoader.Outcome {
        let fetcher = Fetcher(
            client: CurlClient(userAgent: "gymcard/test"),
            // Generous: the in-process server can wait seconds for a thread while CPU-heavy tests run.
            policy: FetchPolicy(timeoutSeconds: 30, maximumAttempts: 1))
        return try await loader.fetch(with: fetcher) { response throws(FeedProblem) in
            try EventsFeedReading.read(response)
        }
    }

    var goodFeed: String {
        FeedFixtures.feed([
            FeedFixtures.item(id: 1, title: "Past", start: now.addingTimeInterval(-7200)),
            FeedFixtures.item(id: 2, title: "Under way", start: now.addingTimeInterval(-1800)),
            FeedFixtures.item(id: 3, title: "Yoga & Pilates", start: now.addingTimeInterval(3600)),
            FeedFixtures.item(
                id: 4, title: "Swim (Cancelled)", start: now.addingTimeInterval(7200), status: "cancelled"),
            FeedFixtures.item(id: 5, title: "Far future", start: now.addingTimeInterval(40 * 86_400)),
            FeedFixtures.item(id: 3, title: "Yoga & Pilates again", start: now.addingTimeInterval(3600)),
        ])
    }

    @Test("a good feed is read, ended events dropped, duplicates dropped, and cached 0600 in a 0700 folder")
    func fresh() async throws {
        let server = try await FeedServer(FeedServer.rss(goodFeed))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        let outcome = try await fetch(loader(server, home: home.path))
        #expect(!outcome.isStale && outcome.warnings.isEmpty && outcome.saveFailure == nil)
        #expect(
            outcome.snapshot.events.map(\.title) == ["Under way", "Yoga & Pilates", "Swim", "Far future"])
        #expect(outcome.snapshot.events[2].status == .cancelled)
        #expect(outcome.snapshot.events[1].description == "About 3")
        let cache = loader(server, home: home.path).cache
        let cached = try #require(cache.load().snapshot)
        #expect(cached == outcome.snapshot)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(
            atPath: (cache.path as NSString).deletingLastPathComponent)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("within five minutes the cache answers; after that, or for another feed, it does not")
    func freshness() async throws {
        let server = try await FeedServer(FeedServer.rss(goodFeed))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        _ = try await fetch(loader(server, home: home.path))
        #expect(loader(server, home: home.path, at: now.addingTimeInterval(299)).freshFromCache() != nil)
        #expect(loader(server, home: home.path, at: now.addingTimeInterval(301)).freshFromCache() == nil)
        var other = loader(server, home: home.path)
        other.settings.url = server.server.url("/another.rss")
        #expect(other.freshFromCache() == nil)
    }

    @Test(
        "a failed fetch shows the cache with its age, and leaves the cache file as it was",
        arguments: [
            LocalServer.Response(status: 404, "Not Found"),
            LocalServer.Response("<!DOCTYPE html><html><body>We moved!</body></html>"),
            LocalServer.Response(
                contentType: "application/xml", "<!DOCTYPE html><html><body>We moved!</body></html>"),
            FeedServer.rss("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><item><title>Cut sh"),
            LocalServer.Response(status: 503, "busy"),
        ])
    func fallback(failure: LocalServer.Response) async throws {
        let server = try await FeedServer(FeedServer.rss(goodFeed))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        _ = try await fetch(loader(server, home: home.path))
        let cachePath = loader(server, home: home.path).cache.path
        let before = try Data(contentsOf: URL(fileURLWithPath: cachePath))
        server.answer.withLock { $0 = failure }
        let outcome = try await fetch(loader(server, home: home.path, at: now.addingTimeInterval(7200)))
        #expect(outcome.isStale)
        #expect(outcome.snapshot.events.count == 4)
        #expect(outcome.warnings.count == 1)
        #expect(outcome.warnings.first?.hasSuffix("(showing the events fetched 2 h ago)") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cachePath)) == before)
    }

    @Test(
        "with no cache, a failure is an error that says what and whether the service or the data is at fault")
    func noCache() async throws {
        let server = try await FeedServer(LocalServer.Response(status: 404, "Not Found"))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        await #expect {
            try await fetch(loader(server, home: home.path))
        } throws: { error in
            guard let error = error as? EventsUnavailable else { return false }
            return error.isUnavailable && error.description.contains("HTTP 404")
        }
        server.answer.withLock { $0 = FeedServer.rss("<rss version=\"2.0\"><channel><item><title>cut") }
        await #expect {
            try await fetch(loader(server, home: home.path))
        } throws: { error in
            guard let error = error as? EventsUnavailable else { return false }
            return !error.isUnavailable && error.description.contains("cut short")
        }
        #expect(!FileManager.default.fileExists(atPath: loader(server, home: home.path).cache.path))
    }

    @Test("a corrupt or other-version cache is ignored with a warning and replaced by the next good fetch")
    func badCache() async throws {
        let server = try await FeedServer(FeedServer.rss(goodFeed))
        defer { Task { await server.server.stop() } }
        for content in [
            "{not json", "{\"version\": 99, \"future\": true}", "{\"version\": 1, \"events\": 3}",
        ] {
            let home = try TemporaryDirectory()
            let cache = loader(server, home: home.path).cache
            try FileManager.default.createDirectory(
                atPath: (cache.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(content.utf8).write(to: URL(fileURLWithPath: cache.path))
            let loaded = cache.load()
            #expect(loaded.snapshot == nil)
            #expect(loaded.warning?.contains("ignoring \(cache.path)") == true, "\(content)")
            let outcome = try await fetch(loader(server, home: home.path))
            #expect(!outcome.isStale)
            #expect(cache.load().snapshot == outcome.snapshot)
        }
    }

    @Test("an iCalendar source is read into the same events")
    func icsSource() async throws {
        let calendar = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:ics-1\r
            DTSTART;TZID=America/New_York:20261121T160000\r
            DTEND;TZID=America/New_York:20261121T173000\r
            SUMMARY:Climbing Clinic\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        for contentType in ["text/calendar; charset=utf-8", "application/octet-stream"] {
            let server = try await FeedServer(LocalServer.Response(contentType: contentType, calendar))
            let home = try TemporaryDirectory()
            let outcome = try await fetch(loader(server, home: home.path))
            await server.server.stop()
            #expect(outcome.snapshot.events.map(\.title) == ["Climbing Clinic"])
            // 16:00 EST is 21:00 UTC, an hour after `now`.
            #expect(outcome.snapshot.events.first?.start == now.addingTimeInterval(7200))
        }
    }

    @Test("an empty feed is an empty list, cached; items without dates are counted in a warning")
    func emptyAndSkipped() async throws {
        let server = try await FeedServer(FeedServer.rss(FeedFixtures.feed([])))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        let empty = try await fetch(loader(server, home: home.path))
        #expect(empty.snapshot.events.isEmpty && empty.warnings.isEmpty)
        #expect(loader(server, home: home.path).freshFromCache() != nil)
        server.answer.withLock {
            $0 = FeedServer.rss(
                FeedFixtures.feed([
                    "<item><title>No dates</title><guid>https://gobblerconnect.vt.edu/event/7</guid></item>"
                ]))
        }
        let skipped = try await fetch(loader(server, home: home.path))
        #expect(skipped.warnings == ["skipped 1 item of the feed without a start or end time"])
    }
}

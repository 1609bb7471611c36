import CampusFeature
import CardFeature
import Configuration
import Events
import EventsFeed
import Fetching
import FetchingCurl
import Foundation
import GymcardCore
import TestServer
import TestSupport
import Testing

/// `events`' use case in process: a real feed server on 127.0.0.1, the real cache in a temporary XDG
/// tree, the feed parser gymcard-network gives the context.
@Suite("The events query, in process")
struct EventsQueryTests {
    static let now = "2026-11-23T17:00:00Z"
    static let fetcher = Fetcher(client: CurlClient(userAgent: "gymcard/test"), policy: FetchPolicy())

    private static func context(_ home: TemporaryDirectory, _ feed: FeedServer, now: String) throws -> Context
    {
        try Context(
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
                "XDG_STATE_HOME": home.path + "/state",
                "XDG_CACHE_HOME": home.path + "/cache", "XDG_DATA_HOME": home.path + "/data",
                "GYMCARD_TEST_NOW": now, "GYMCARD_EVENTS_URL": feed.server.url("/events.rss").absoluteString,
            ],
            online: Online(
                makeClient: { CurlClient(userAgent: $0) },
                readEventsFeed: { response throws(FeedProblem) in try EventsFeedReading.read(response) })
        ) { _ in }
    }

    private static func feed(_ titles: [String]) -> LocalServer.Response {
        let start = Date(timeIntervalSince1970: 1_795_453_200 + 3600)  // an hour after `now`
        return FeedServer.rss(
            FeedFixtures.feed(
                titles.enumerated().map { FeedFixtures.item(id: $0.offset, title: $0.element, start: start) })
        )
    }

    /// A fetcher the query must not ask for.
    private static func noFetcher() throws -> Fetcher {
        Issue.record("the network was asked for while the cache was fresh")
        return fetcher
    }

    @Test func aFreshCacheAnswersWithoutTheNetworkAndRefreshFetchesAnyway() async throws {
        let feed = try await FeedServer(Self.feed(["Yoga", "Spin"]))
        defer { Task { await feed.server.stop() } }
        let home = try TemporaryDirectory()
        let query = try EventsQuery(context: try Self.context(home, feed, now: Self.now))
        let first = try await query.answer(refresh: false) { Self.fetcher }
        #expect(first.snapshot.events.map(\.title) == ["Yoga", "Spin"])
        #expect(!first.isStale && first.saveFailure == nil)
        #expect(feed.requests.withLock { $0 } == 1)
        feed.answer.withLock { $0 = Self.feed(["Zumba"]) }
        // A minute later: the cache answers, the fetcher is never asked for.
        let later = try EventsQuery(context: try Self.context(home, feed, now: "2026-11-23T17:01:00Z"))
        #expect(
            try await later.answer(refresh: false, fetcher: Self.noFetcher).snapshot.events.map(\.title) == [
                "Yoga", "Spin",
            ])
        #expect(feed.requests.withLock { $0 } == 1)
        let refreshed = try await later.answer(refresh: true) { Self.fetcher }
        #expect(refreshed.snapshot.events.map(\.title) == ["Zumba"])
        #expect(feed.requests.withLock { $0 } == 2)
    }

    @Test func aFailingFeedFallsBackToTheCacheAtAnyAgeAndWithoutOneIsUnavailable() async throws {
        let feed = try await FeedServer(Self.feed(["Yoga"]))
        defer { Task { await feed.server.stop() } }
        let home = try TemporaryDirectory()
        _ = try await EventsQuery(context: try Self.context(home, feed, now: Self.now)).answer(refresh: false)
        {
            Self.fetcher
        }
        feed.answer.withLock { $0 = LocalServer.Response(status: 404, "gone") }
        // A day later the cache is stale: the feed is asked, fails, and the cache answers, marked stale.
        let dayLater = try EventsQuery(context: try Self.context(home, feed, now: "2026-11-24T17:00:00Z"))
        let stale = try await dayLater.answer(refresh: false) { Self.fetcher }
        #expect(stale.isStale)
        #expect(stale.snapshot.fetchedAt == ISO8601DateFormatter().date(from: Self.now))
        #expect(feed.requests.withLock { $0 } == 2)
        let empty = try TemporaryDirectory()
        let none = try EventsQuery(context: try Self.context(empty, feed, now: Self.now))
        await #expect {
            try await none.answer(refresh: false) { Self.fetcher }
        } throws: { error in
            // The reason, and where the address came from, for the advice the command adds.
            guard let problem = error as? EventsQueryProblem, case .fetch = problem.reason else {
                return false
            }
            return problem.origin == .environment(variable: "GYMCARD_EVENTS_URL")
        }
    }
}

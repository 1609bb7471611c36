import CivilTime
import Fetching
import FoundationEssentials
import Storage

/// Reads a feed's body into events: Engage RSS or iCalendar (the parsers need FoundationXML and named
/// time zones, so they live in EventsFeed and come in as this function).
public typealias EventsFeedReader = @Sendable (HTTPResponse) throws(FeedProblem) -> ParsedFeed

extension ExpectedContent {
    /// An RSS or iCalendar feed. `text/plain` and `application/octet-stream` pass because servers label
    /// `.ics` files so; the body decides what it is.
    public static let eventsFeed = ExpectedContent(
        mediaTypes: [
            "application/rss+xml", "application/xml", "text/xml", "application/x-rss+xml", "text/calendar",
            "text/plain", "application/octet-stream",
        ],
        name: "an RSS or iCalendar feed")
}

/// Why no events could be shown: nothing fetched and nothing cached.
public enum EventsUnavailable: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The feed could not be fetched.
    case fetch(FetchError)
    /// The feed arrived but is not one.
    case feed(host: String, FeedProblem)

    /// Whether the service is unavailable (69) rather than its data bad (65).
    public var isUnavailable: Bool {
        switch self {
        case .fetch: return true
        case .feed(_, let problem): return problem.meansUnavailable
        }
    }

    /// One line for a person.
    public var description: String {
        switch self {
        case .fetch(let error): return "cannot fetch the events: \(error)"
        case .feed(let host, let problem) where problem.meansUnavailable:
            return "the events feed at \(host) is unavailable: \(problem)"
        case .feed(let host, let problem):
            return "the events feed from \(host) is unusable: \(problem); try again later"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

/// Gets the events: from the cache while it is fresh, else from the feed, falling back to the cache
/// (with its age said) when the fetch fails. The cache is only ever replaced by a fetch that parsed.
public struct EventsLoader: Sendable {
    /// Where the feed is.
    public var settings: EventsSettings
    /// The cache file.
    public var cache: EventsCache
    /// The current time.
    public var now: Date

    /// Creates a loader.
    public init(settings: EventsSettings, cache: EventsCache, now: Date) {
        self.settings = settings
        self.cache = cache
        self.now = now
    }

    /// What a load produced.
    public struct Outcome: Sendable {
        /// Every known event that had not ended when fetched, and every repeating one (filter and
        /// expand with ``EventAgenda``).
        public var snapshot: EventsSnapshot
        /// Whether the events come from the cache because the fetch failed.
        public var isStale: Bool
        /// Lines for stderr: a fallback's reason and age, skipped items.
        public var warnings: [String]
        /// Why the fresh events could not be cached, when they could not.
        public var saveFailure: StorageError?
    }

    /// The cached events when they are fresh for this feed, without a word (nil: fetch). `loaded` is
    /// the cache already read, so that deciding and falling back read it once.
    public func freshFromCache(_ loaded: EventsCache.Loaded? = nil) -> EventsSnapshot? {
        guard let snapshot = (loaded ?? cache.load()).snapshot, snapshot.isFresh(for: source, now: now) else {
            return nil
        }
        return snapshot
    }

    /// Fetches and parses the feed, caching what parsed; on failure falls back to the cache (`loaded`,
    /// when the caller has read it already). An unusable cache's warning (`loaded.warning`) is the
    /// caller's to say: it holds whether the fetch works or not.
    ///
    /// - Throws: ``EventsUnavailable`` when the fetch failed and there is no cache for this feed.
    public func fetch(
        with fetcher: Fetcher, reading read: EventsFeedReader, loaded: EventsCache.Loaded? = nil
    )
        async throws(EventsUnavailable) -> Outcome
    {
        let loaded = loaded ?? cache.load()
        var warnings: [String] = []
        let cached = loaded.snapshot.flatMap { $0.source == source ? $0 : nil }
        let failure: EventsUnavailable
        do {
            let request = HTTPRequest.get(settings.url, accept: ExpectedContent.eventsFeed.acceptHeader)
            let response = try await fetcher.fetch(request, expecting: .eventsFeed)
            do {
                let feed = try read(response)
                if feed.skipped > 0 {
                    let items = feed.skipped == 1 ? "1 item" : "\(feed.skipped) items"
                    warnings.append("skipped \(items) of the feed without a start or end time")
                }
                let snapshot = EventsSnapshot(
                    source: source, fetchedAt: now,
                    events: feed.events.filter { $0.end > now || $0.recurrence != nil })
                var saveFailure: StorageError?
                do { try cache.save(snapshot) } catch { saveFailure = error }
                return Outcome(
                    snapshot: snapshot, isStale: false, warnings: warnings, saveFailure: saveFailure)
            } catch {
                failure = .feed(host: request.host, error)
            }
        } catch {
            if error == .cancelled { throw .fetch(.cancelled) }
            failure = .fetch(error)
        }
        guard let cached else { throw failure }
        warnings.append("\(failure) (showing the events fetched \(Age.ago(from: cached.fetchedAt, to: now)))")
        return Outcome(snapshot: cached, isStale: true, warnings: warnings, saveFailure: nil)
    }

    private var source: String { settings.url.absoluteString }
}

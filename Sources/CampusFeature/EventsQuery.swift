import Configuration
import Events
import Fetching
import FoundationEssentials
import GymcardCore
import Storage

/// `events`: the feed's events, from the cache while it is fresh (no network), else fetched, falling
/// back to the cache at any age when the feed fails.
public struct EventsQuery: Sendable {
    /// Where the feed is, and where that came from.
    public let settings: EventsSettings
    /// Now.
    public let now: Date
    private let loader: EventsLoader
    private let context: Context

    /// Reads the events settings (the config file, then the environment).
    public init(context: Context) throws(ConfigFileProblem) {
        settings = try context.config.eventsSettings()
        now = context.clock.now
        loader = EventsLoader(
            settings: settings, cache: EventsCache(directories: context.directories), now: now)
        self.context = context
    }

    /// What to show.
    public struct Answer: Sendable {
        /// The events.
        public var snapshot: EventsSnapshot
        /// Lines for stderr (the feed's skipped items; why the cache answered).
        public var warnings: [String] = []
        /// The fetch could not be cached (a full disk).
        public var saveFailure: StorageError?
        /// Shown from the cache after a failed fetch.
        public var isStale = false
    }

    /// The events; `fetcher` is asked for only when the network is needed (in `gymcard` it hands the
    /// process over to `gymcard-network`, which reads the cache itself). An unusable cache is a warning.
    ///
    /// - Throws: ``EventsQueryProblem`` when the fetch failed and nothing is cached, or the context's
    ///   problem when there is no network.
    public func answer(refresh: Bool, fetcher: () throws -> Fetcher) async throws -> Answer {
        let cached = refresh ? nil : loader.cache.load()
        if let cached, let snapshot = loader.freshFromCache(cached) { return Answer(snapshot: snapshot) }
        let fetcher = try fetcher()
        let reader = try context.online().readEventsFeed
        let loaded = cached ?? loader.cache.load()
        if let warning = loaded.warning { context.warn(warning) }
        let outcome: EventsLoader.Outcome
        do { outcome = try await loader.fetch(with: fetcher, reading: reader, loaded: loaded) } catch {
            throw EventsQueryProblem(reason: error, origin: settings.origin, configPath: context.config.path)
        }
        return Answer(
            snapshot: outcome.snapshot, warnings: outcome.warnings, saveFailure: outcome.saveFailure,
            isStale: outcome.isStale)
    }

    /// The events of `snapshot` that have not ended and start within `days` days, matching `filter`, with
    /// repeating iCalendar events listed on each occurrence (in their own time zones).
    public func upcoming(_ snapshot: EventsSnapshot, days: Int, matching filter: EventFilter) -> [Event] {
        EventAgenda.upcoming(
            snapshot.events, now: now, days: days, matching: filter, zones: { try? context.zone($0) })
    }
}

/// The feed could not be used and nothing was cached: why, and where its address came from (the advice
/// for a wrong address names it).
public struct EventsQueryProblem: Error, CustomStringConvertible {
    /// Why.
    public var reason: EventsUnavailable
    /// Where the feed's address came from.
    public var origin: SettingOrigin
    /// The config file's path, for the advice.
    public var configPath: String

    /// What happened.
    public var description: String { reason.description }
}

extension EventsQuery {
    /// `events --ics`: `events` as an iCalendar file.
    public func calendar(_ events: [Event]) -> [UInt8] {
        Array(ICalendarWriter.calendar(events, name: "RecSports events", generatedAt: now).utf8)
    }

    /// What to say of `events` written to the file `path` (`wrote 3 events to week.ics`).
    public static func written(_ events: [Event], to path: String) -> String {
        "wrote \(events.count == 1 ? "1 event" : "\(events.count) events") to \(path)"
    }
}

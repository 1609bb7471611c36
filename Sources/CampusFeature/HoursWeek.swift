import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours
import Storage
import TerminalText

/// What `hours` shows: the facilities' opening hours for some days from today, in their own zone, with
/// where each comes from, and what was lacking.
public struct HoursWeek: Sendable {
    /// The campus's settings.
    public let settings: OccupancySettings
    /// The facilities' zone.
    public let zone: LocalTimeZone
    /// Now.
    public let now: Date
    /// The days shown, today first.
    public let shown: [LocalDay]
    /// Each facility's hours and their source.
    public let entries: [HoursEntry]
    /// What loading them gave (warnings, what failed).
    public let outcome: HoursLoader.Outcome
    /// Whether these are ``DemoGym``'s made-up hours (`--demo`).
    public var isDemo = false

    /// Loads `days` days from today for the facility `facility` names (all when `nil`): from the cache
    /// when it answers fresh, else through `fetcher()` (in `gymcard`, the hand-over to gymcard-network);
    /// with `demo`, ``demo(facility:days:settings:context:)``'s made-up hours.
    public static func load(
        facility: String?, days: Int, settings: OccupancySettings, context: Context, demo: Bool = false,
        fetcher: () throws -> Fetcher
    ) async throws -> HoursWeek {
        if demo { return try Self.demo(facility: facility, days: days, settings: settings, context: context) }
        let zone = try context.zone(settings.timeZone)
        let facilities = try settings.facilities(matching: facility)
        let now = context.clock.now
        let access = try HoursAccess(
            facilities: facilities.map(\.key), zone: zone, now: now, campus: settings.campus, context: context
        )
        let (shown, loaded) = access.week(days)
        let outcome = try await access.loadHandingOver(loaded, fetcher: fetcher)
        return HoursWeek(
            settings: settings, zone: zone, now: now, shown: shown,
            entries: access.entries(facilities, outcome: outcome), outcome: outcome)
    }

    /// `hours --demo`: ``DemoGym``'s hours for `days` days from today, their source `demo`; nothing is
    /// fetched or cached.
    public static func demo(facility: String?, days: Int, settings: OccupancySettings, context: Context)
        throws -> HoursWeek
    {
        let zone = try context.zone(settings.timeZone)
        let facilities = try settings.facilities(matching: facility)
        let now = context.clock.now
        let today = zone.day(of: now)
        let shown = (0..<days).map { today.adding(days: $0) }
        let outcome = HoursLoader.Outcome(
            hours: DemoGym.hours(facilities, days: (-1...days).map { today.adding(days: $0) }, zone: zone))
        let entries = facilities.map { facility in
            HoursEntry(
                key: facility.key, name: facility.name, hours: outcome.hours[facility.key] ?? .unknown,
                source: "demo")
        }
        return HoursWeek(
            settings: settings, zone: zone, now: now, shown: shown, entries: entries, outcome: outcome,
            isDemo: true)
    }

    /// Lines for stderr (a service that failed, an old copy used; a GoBoard or Waitz campus without hours
    /// in its profile: its vendor publishes none, and none are guessed).
    public var warnings: [String] {
        guard settings.vendor != .fusion, !isDemo, entries.allSatisfy({ $0.source == nil }),
            let campus = settings.campus
        else { return outcome.warnings }
        return outcome.warnings + [
            "no hours known: \(settings.vendor.vendor.displayName) publishes no opening hours; give weekly hours"
                + " as campuses.\(campus).hours.<key> in the config file"
        ]
    }

    /// `hours --json`.
    public var json: String {
        HoursJSON.document(entries, days: shown, timeZone: settings.timeZone, zone: zone, now: now)
    }

    /// The text, today marked, fitted to `columns` when given.
    public func lines(colour: Bool, columns: Int? = nil) -> [String] {
        (isDemo ? DemoGym.banner.wrapped(columns: columns) : [])
            + HoursTextView(zone: zone, now: now, colour: colour, columns: columns).lines(
                entries, days: shown)
    }

    /// What was lacking, or `nil`.
    public var shortfall: HoursShortfall? {
        if let failure = outcome.saveFailure { return .notCached(failure.description) }
        guard outcome.isDegraded else { return nil }
        let anythingKnown = entries.contains { entry in shown.contains { entry.hours[$0].isKnown } }
        return anythingKnown ? .partlyUnknown : .nothingKnown
    }
}

/// What the hours shown lacked.
public enum HoursShortfall: Error, Sendable, Equatable, CustomStringConvertible {
    /// Shown, but the cache could not be written: why.
    case notCached(String)
    /// Some day came from an old copy or is unknown because the service failed (the lines say which).
    case partlyUnknown
    /// The service failed and nothing at all is known.
    case nothingKnown

    /// One line for stderr; empty when the lines shown already say it.
    public var description: String {
        if case .notCached(let why) = self { return "the opening hours were shown but not cached: \(why)" }
        return ""
    }
}

import CivilTime
import DynamicLoading
import Fetching
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours

/// Opening hours for the use cases that show or use them (`hours`, `occupancy`, `wait`, `best`): the
/// settings, the facilities' zone, the per-day cache, and loading with or without the network.
public struct HoursAccess: Sendable {
    /// The loader (settings, zone, cache, now).
    public private(set) var loader: HoursLoader
    /// The facilities asked about, by key.
    public let facilities: [String]

    /// Resolves the hours settings from the config file; `zone` is the facilities' zone.
    public init(facilities: [String], zone: LocalTimeZone, now: Date, campus: String?, context: Context)
        throws(ConfigFileProblem)
    {
        let settings = try context.config.hoursSettings(campus: campus)
        loader = HoursLoader(
            settings: settings, zone: zone, cache: HoursCache(directories: context.directories), now: now)
        self.facilities = facilities
    }

    /// The same, with "now" moved on (a watch, a wait).
    public func at(_ now: Date) -> HoursAccess {
        var moved = self
        moved.loader.now = now
        return moved
    }

    /// The days an answer about `start..<end` needs (the day before included).
    public func days(from start: Date, to end: Date) -> [LocalDay] { loader.days(from: start, to: end) }

    /// `count` days from today to show, and the days to load for them: from yesterday (an opening past
    /// midnight) to the day after the last shown (the next opening).
    public func week(_ count: Int) -> (shown: [LocalDay], loaded: [LocalDay]) {
        let today = loader.zone.day(of: loader.now)
        let shown = (0..<count).map { today.adding(days: $0) }
        return (shown, [today.adding(days: -1)] + shown + [today.adding(days: count)])
    }

    /// Whether answering for `days` needs the network (the cache has no fresh answer for some day).
    public func needsNetwork(_ days: [LocalDay]) -> Bool {
        !loader.daysToFetch(days, for: facilities).isEmpty
    }

    /// Hours from the config file and the cache only, whatever their age (status bars, `--cached`).
    public func cached(_ days: [LocalDay]) -> HoursLoader.Outcome { loader.cached(facilities, days: days) }

    /// Hours, fetching what the cache cannot answer fresh.
    public func load(_ days: [LocalDay], fetcher: Fetcher) async -> HoursLoader.Outcome {
        await loader.load(facilities, days: days, fetcher: fetcher)
    }

    /// Hours, from the cache when it answers fresh, else through `fetcher()` (which, in `gymcard` itself,
    /// hands the whole command over to `gymcard-network`).
    public func loadHandingOver(_ days: [LocalDay], fetcher: () throws -> Fetcher) async throws
        -> HoursLoader.Outcome
    {
        guard needsNetwork(days) else { return cached(days) }
        return await load(days, fetcher: try fetcher())
    }

    /// Where each facility's hours come from: `service`, `config`, or `nil` (none), and the config key
    /// that gives them (``configKey(_:)``).
    public func entries(_ facilities: [Facility], outcome: HoursLoader.Outcome) -> [HoursEntry] {
        facilities.map { facility in
            let source = loader.settings.sources[facility.key]
            let kind: String? =
                source == nil
                ? nil : source?.unit != nil ? "service" : source?.schedule.isEmpty == false ? "config" : nil
            return HoursEntry(
                key: facility.key, name: facility.name, hours: outcome.hours[facility.key] ?? .unknown,
                source: kind, configKey: configKey(facility.key))
        }
    }

    /// The config file's key that gives a facility's hours: `hours.facilities.<key>`, or
    /// `campuses.<name>.hours.<key>` for an added campus.
    public func configKey(_ facility: String) -> String { loader.settings.configSection + "." + facility }
}

/// The facilities' zone and their opening hours around now, for `occupancy` and `wait`, which must go on
/// without them: a zone that is not installed, or an hours service that fails, only leaves the hours
/// unknown, with a warning.
public struct FacilityHoursContext: Sendable {
    /// The facilities' zone (the user's own when it is not installed).
    public let zone: LocalTimeZone
    private let access: HoursAccess?
    private let zoneProblem: String?

    /// Reads the facilities' zone and the hours settings (an invalid config file still stops the
    /// command).
    public init(settings: OccupancySettings, context: Context) throws(ConfigFileProblem) {
        let facilityZone: LocalTimeZone
        do { facilityZone = try context.zone(settings.timeZone) } catch {
            zone = .system
            access = nil
            // The one advice in a library message: what a missing zone always needs.
            let advice =
                if case .unknownZone = error { "; install \(SystemData.timeZones.debianPackage)" } else { "" }
            zoneProblem = "opening hours unknown: \(error)\(advice)"
            return
        }
        zone = facilityZone
        access = try HoursAccess(
            facilities: settings.facilities.map(\.key), zone: facilityZone, now: context.clock.now,
            campus: settings.campus, context: context)
        zoneProblem = nil
    }

    /// Hours from the config file and the cache only (no network).
    public func cached(at now: Date) -> LoadedHours {
        guard let access = access?.at(now) else {
            return LoadedHours(zone: zone, warnings: zoneProblem.map { [$0] } ?? [])
        }
        let outcome = access.cached(access.days(from: now, to: now.addingTimeInterval(86_400)))
        return LoadedHours(hours: outcome.hours, zone: zone, warnings: outcome.warnings)
    }

    /// Hours from yesterday to tomorrow, fetching what the cache cannot answer fresh.
    public func load(at now: Date, fetcher: Fetcher) async -> LoadedHours {
        guard let access = access?.at(now) else {
            return LoadedHours(zone: zone, warnings: zoneProblem.map { [$0] } ?? [])
        }
        let outcome = await access.load(
            access.days(from: now, to: now.addingTimeInterval(86_400)), fetcher: fetcher)
        return LoadedHours(hours: outcome.hours, zone: zone, warnings: outcome.warnings)
    }
}

/// Opening hours loaded for a report.
public struct LoadedHours: Sendable {
    /// Hours by facility key (empty: unknown).
    public var hours: [String: FacilityHours] = [:]
    /// The zone their days are in.
    public var zone: LocalTimeZone
    /// Lines for stderr.
    public var warnings: [String]

    /// The report with each facility's opening state.
    public func apply(to report: OccupancyReport) -> OccupancyReport { report.applying(hours, zone: zone) }
}

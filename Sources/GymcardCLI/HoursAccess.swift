import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours
import Storage

/// Opening hours for the commands that show or use them (`hours`, `occupancy`, `wait`, `best`): the
/// settings, the facilities' zone, the per-day cache, and loading with or without the network.
struct HoursAccess {
    /// The loader (settings, zone, cache, now).
    private(set) var loader: HoursLoader
    /// The facilities asked about, by key.
    let facilities: [String]

    /// Resolves the hours settings from the config file; `zone` is the facilities' zone, already adopted.
    init(facilities: [String], zone: LocalTimeZone, now: Date, campus: String?, context: Context) throws {
        let settings = try context.config.hoursSettings(campus: campus)
        loader = HoursLoader(
            settings: settings, zone: zone, cache: HoursCache(directories: context.directories), now: now)
        self.facilities = facilities
    }

    /// The same, with "now" moved on (a watch, a wait).
    func at(_ now: Date) -> HoursAccess {
        var moved = self
        moved.loader.now = now
        return moved
    }

    /// The days an answer about `start..<end` needs (the day before included).
    func days(from start: Date, to end: Date) -> [LocalDay] { loader.days(from: start, to: end) }

    /// Whether answering for `days` needs the network (the cache has no fresh answer for some day).
    func needsNetwork(_ days: [LocalDay]) -> Bool { !loader.daysToFetch(days, for: facilities).isEmpty }

    /// Hours from the config file and the cache only, whatever their age (status bars, `--cached`).
    func cached(_ days: [LocalDay]) -> HoursLoader.Outcome { loader.cached(facilities, days: days) }

    /// Hours, fetching what the cache cannot answer fresh.
    func load(_ days: [LocalDay], fetcher: Fetcher) async -> HoursLoader.Outcome {
        await loader.load(facilities, days: days, fetcher: fetcher)
    }

    /// Hours, from the cache when it answers fresh, else through the network: in `gymcard` itself this
    /// hands the whole command over to `gymcard-network` (which runs it again from the start).
    func loadHandingOver(_ days: [LocalDay], network: NetworkOptions, context: Context) async throws
        -> HoursLoader.Outcome
    {
        guard needsNetwork(days) else { return cached(days) }
        return await load(days, fetcher: try network.fetcher(context))
    }
}

/// The facilities' zone and their opening hours around now, for `occupancy` and `wait`, which must go on
/// without them: a zone that is not installed, or an hours service that fails, only leaves the hours
/// unknown, with a warning.
struct FacilityHoursContext: Sendable {
    /// The facilities' zone (the user's own when it is not installed).
    let zone: LocalTimeZone
    private let access: HoursAccess?
    private let zoneProblem: String?

    /// Adopts the facilities' zone and reads the hours settings (an invalid config file still stops the
    /// command, with exit 78).
    init(settings: OccupancySettings, context: Context) throws {
        let adopted: LocalTimeZone
        do { adopted = try context.zone(settings.timeZone) } catch {
            zone = .system
            access = nil
            zoneProblem = "opening hours unknown: " + (ExitTable.failure(for: error)?.message ?? "\(error)")
            return
        }
        zone = adopted
        access = try HoursAccess(
            facilities: settings.facilities.map(\.key), zone: adopted, now: context.clock.now,
            campus: settings.campus, context: context)
        zoneProblem = nil
    }

    /// Hours from the config file and the cache only (no network).
    func cached(at now: Date) -> LoadedHours {
        guard let access = access?.at(now) else {
            return LoadedHours(zone: zone, warnings: zoneProblem.map { [$0] } ?? [])
        }
        let outcome = access.cached(access.days(from: now, to: now.addingTimeInterval(86_400)))
        return LoadedHours(hours: outcome.hours, zone: zone, warnings: outcome.warnings)
    }

    /// Hours from yesterday to tomorrow, fetching what the cache cannot answer fresh.
    func load(at now: Date, fetcher: Fetcher) async -> LoadedHours {
        guard let access = access?.at(now) else {
            return LoadedHours(zone: zone, warnings: zoneProblem.map { [$0] } ?? [])
        }
        let outcome = await access.load(
            access.days(from: now, to: now.addingTimeInterval(86_400)), fetcher: fetcher)
        return LoadedHours(hours: outcome.hours, zone: zone, warnings: outcome.warnings)
    }
}

/// Opening hours loaded for a report.
struct LoadedHours: Sendable {
    /// Hours by facility key (empty: unknown).
    var hours: [String: FacilityHours] = [:]
    /// The zone their days are in.
    var zone: LocalTimeZone
    /// Lines for stderr.
    var warnings: [String]

    /// The report with each facility's opening state.
    func apply(to report: OccupancyReport) -> OccupancyReport { report.applying(hours, zone: zone) }
}

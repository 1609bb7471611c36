import ArgumentParser
import CivilTime
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import Storage
import Trends

/// What `trends` and `best` share: the facility argument, the facilities' zone, "now", and the heatmaps
/// built from the history.
struct HistoryContext {
    let settings: OccupancySettings
    let directories: XDGDirectories
    let environment: [String: String]
    let zone: LocalTimeZone
    let now: Date

    /// Resolves the campus's settings, adopts its facilities' time zone, and reads "now".
    init(campus: CampusOption, context: Context) throws {
        environment = context.environment
        directories = context.directories
        settings = try campus.settings(context)
        zone = try context.zone(settings.timeZone)
        now = context.clock.now
    }

    /// The facility named by `argument` (see ``OccupancySettings/facilities(matching:)``), or all of them.
    func facilities(_ argument: String?) throws -> [Facility] { try settings.facilities(matching: argument) }

    /// Each facility's heatmap over the last `weeks` weeks, with its percent now when a fresh reading is
    /// stored. An absent history gives empty heatmaps.
    func heatmaps(_ facilities: [Facility], weeks: Int) throws -> [HeatmapTextView.Facility] {
        let from = now.addingTimeInterval(-Double(weeks) * 7 * 86_400)
        let store = try HistoryAccess.openForReading(directories, campus: settings.campus)
        let current = OccupancyMonitor.cached(
            settings: settings,
            stateFile: OccupancyStateFile(directories: directories, campus: settings.campus),
            now: now)
        return try facilities.map { facility in
            var readings: [HistoryReading] = []
            if let store {
                do { readings = try store.readings(facility: facility.key, from: from, to: now) } catch {
                    throw HistoryAccess.failure(error)
                }
            }
            let status = current.report.facilities.first { $0.facility.key == facility.key }
            return HeatmapTextView.Facility(
                name: facility.name,
                heatmap: WeeklyHeatmap(facility: facility.key, readings: readings, zone: zone),
                currentPercent: status?.status == .ok ? status?.reading?.percent : nil)
        }
    }

    /// The start of the window the heatmaps cover.
    func windowStart(weeks: Int) -> Date { now.addingTimeInterval(-Double(weeks) * 7 * 86_400) }
}

/// `--weeks N` for `trends` and `best`.
struct WeeksOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How many past weeks of history to use (1–52).", valueName: "n"))
    var weeks = 8

    func validate() throws {
        guard (1...52).contains(weeks) else { throw ValidationError("--weeks must be 1 to 52") }
    }
}

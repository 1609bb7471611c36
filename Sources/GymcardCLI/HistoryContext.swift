import ArgumentParser
import CivilTime
import FoundationEssentials
import GymcardCore
import Occupancy

/// What the commands about a campus's weekdays and times share (`hours`): its settings, the facilities'
/// zone, "now", and the facility argument.
struct HistoryContext {
    let settings: OccupancySettings
    let environment: [String: String]
    let zone: LocalTimeZone
    let now: Date

    init(campus: CampusOption, context: Context) throws {
        environment = context.environment
        settings = try campus.settings(context)
        zone = try context.zone(settings.timeZone)
        now = context.clock.now
    }

    /// The facility named by `argument` (see ``OccupancySettings/facilities(matching:)``), or all of them.
    func facilities(_ argument: String?) throws -> [Facility] { try settings.facilities(matching: argument) }
}

/// `--weeks N` for `trends` and `best`.
struct WeeksOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How many past weeks of history to use (1–52).", valueName: "n"))
    var weeks = 8

    func validate() throws {
        guard (1...52).contains(weeks) else { throw ValidationError("--weeks must be 1 to 52") }
    }

    /// The window of the last `weeks` weeks of `campus`'s history.
    func window(_ campus: CampusOption, _ context: Context) throws -> HistoryWindow {
        try HistoryWindow(settings: campus.settings(context), weeks: weeks, context: context)
    }
}

import ArgumentParser
import CivilTime
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours

/// `gymcard hours`: when the facilities are open this week.
struct HoursCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "hours",
        abstract: "Show when the facilities are open, today marked.",
        discussion: """
            Hours come from RecSports' hours service for McComas Hall and War Memorial Hall, and from the \
            config file for any facility (hours.facilities.<key>, or campuses.<name>.hours.<key> for an \
            added campus: weekly hours and dated exceptions); the Bouldering Wall has none unless the \
            config file gives them. Each day's answer is cached in $XDG_CACHE_HOME/gymcard/hours/ (fresh \
            for an hour for yesterday and today, six for later days); when the service fails the cached \
            copy is used, whatever its age, else the day is unknown. Unknown is never taken for open. \
            Times are the facilities' own (occupancy.timeZone).

            Exit status: 0; 74 when the hours were shown but could not be cached; 75 when some day could \
            only come from an old copy or is unknown because the service failed; 69 when the service \
            failed and nothing at all is known.
            """
    )

    @Argument(help: ArgumentHelp("A facility key or name (default: all).", valueName: "facility"))
    var facility: String?

    @Option(
        name: [.short, .long], help: ArgumentHelp("How many days to show, from today (1–14).", valueName: "n")
    )
    var days = 7

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .customLong("no-color"), help: "Print without colour codes.")
    var noColor = false

    @OptionGroup var campus: CampusOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        guard (1...14).contains(days) else { throw ValidationError("--days must be between 1 and 14") }
    }

    func run(in context: Context) async throws {
        let history = try HistoryContext(campus: campus, context: context)
        let facilities = try history.facilities(facility)
        let access = try HoursAccess(
            facilities: facilities.map(\.key), zone: history.zone, now: history.now,
            campus: history.settings.campus, context: context)
        let (shown, loaded) = access.week(days)
        let outcome = try await access.loadHandingOver(loaded, network: network, context: context)
        for warning in outcome.warnings { Terminal.standardError.say(warning) }
        let entries = access.entries(facilities, outcome: outcome)
        if json {
            print(
                HoursJSON.document(
                    entries, days: shown, timeZone: history.settings.timeZone, zone: history.zone,
                    now: history.now))
        } else {
            let terminal = Terminal(environment: history.environment)
            let view = HoursTextView(
                zone: history.zone, now: history.now,
                colour: terminal.reasonColourIsOff(noColorFlag: noColor) == nil)
            terminal.printLines(view.lines(entries, days: shown))
        }
        if let failure = outcome.saveFailure {
            throw Failure("the opening hours were shown but not cached: \(failure)", status: .ioError)
        }
        guard outcome.isDegraded else { return }
        let anythingKnown = entries.contains { entry in shown.contains { entry.hours[$0].isKnown } }
        throw anythingKnown ? Failure.silent(.staleData) : Failure.silent(.unavailable)
    }
}

extension HoursAccess {
    /// Hours with the command's `--timeout` (`hours`, `best`): the cache, else the network.
    func loadHandingOver(_ days: [LocalDay], network: NetworkOptions, context: Context) async throws
        -> HoursLoader.Outcome
    { try await loadHandingOver(days) { try network.fetcher(context) } }
}

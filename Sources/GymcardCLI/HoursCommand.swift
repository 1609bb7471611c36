import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

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

    @Argument(
        help: ArgumentHelp("A facility key or name (default: all).", valueName: "facility"),
        completion: .facilities)
    var facility: String?

    @Option(
        name: [.short, .long], help: ArgumentHelp("How many days to show, from today (1–14).", valueName: "n")
    )
    var days = 7

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .customLong("no-color"), help: "Print without colour codes.")
    var noColor = false

    @Flag(name: .long, help: "Show made-up hours of a campus gym, labelled DEMO, without the network.")
    var demo = false

    @OptionGroup var campus: CampusOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        guard (1...14).contains(days) else { throw ValidationError("--days must be between 1 and 14") }
    }

    func run(in context: Context) async throws {
        let week = try await HoursWeek.load(
            facility: facility, days: days, settings: try campus.settings(context), context: context,
            demo: demo
        ) { try network.fetcher(context) }
        for warning in week.warnings { Terminal.standardError.say(warning) }
        let terminal = Terminal(environment: context.environment)
        terminal.printLines(
            json
                ? [week.json]
                : week.lines(
                    colour: terminal.reasonColourIsOff(noColorFlag: noColor) == nil, columns: terminal.columns
                ))
        if let shortfall = week.shortfall { throw shortfall }
    }
}

import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard best`: the quietest times in the coming hours for a workout of a given length.
struct BestCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "best",
        abstract: "Suggest the quietest times to go in the coming hours, from the history.",
        discussion: """
            Scores every window of --for starting now or at a half hour within --within, over the whole \
            workout from the trends heatmap (not just its start), and prints the quietest that do not \
            overlap. A window that touches a half hour without enough history is never suggested, nor one \
            that is not wholly inside known opening hours (see `gymcard hours`; unknown hours are never \
            taken for open). When nothing can be suggested, gymcard says why (too little history, unknown \
            hours) and exits 1, as `trends` does without a usual value. Bands: quiet under 40 %, moderate under 65 %, busy under 85 %, packed above.
            """
    )

    @Argument(
        help: ArgumentHelp("A facility key or name (default: all).", valueName: "facility"),
        completion: .facilities)
    var facility: String?

    @Option(name: .long, help: ArgumentHelp("How far ahead to look, e.g. 12h or 90m.", valueName: "duration"))
    var within = GivenDuration(seconds: 12 * 3600, text: "12h")

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp("How long the workout lasts, e.g. 90m.", valueName: "duration"))
    var duration = GivenDuration(seconds: 90 * 60, text: "90m")

    @OptionGroup var campus: CampusOption

    @OptionGroup var weeks: WeeksOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        guard (3600...7 * 86_400).contains(within.seconds) else {
            throw ValidationError("--within must be a duration from 1h to 7d, such as 12h")
        }
        guard (15 * 60...8 * 3600).contains(duration.seconds) else {
            throw ValidationError("--for must be a duration from 15m to 8h, such as 90m")
        }
        guard duration.seconds <= within.seconds else {
            throw ValidationError("--for must not be longer than --within")
        }
    }

    func run(in context: Context) async throws {
        let window = try weeks.window(campus, context)
        let (warnings, lines, suggested) = try await window.best(
            try window.settings.facilities(matching: facility), lengthSeconds: duration.seconds,
            horizonSeconds: within.seconds, columns: Terminal(environment: context.environment).columns
        ) { try network.fetcher(context) }
        for warning in warnings { Terminal.standardError.say(warning) }
        Terminal(environment: context.environment).printLines(lines.map(\.terminalSafe))
        if !suggested { throw Failure.silent(.nothingFound) }
    }
}

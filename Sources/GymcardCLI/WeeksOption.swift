import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

/// `--weeks N` and `--demo` for `trends` and `best`.
struct WeeksOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How many past weeks of history to use (1–52).", valueName: "n"))
    var weeks = 8

    @Flag(name: .long, help: "Use made-up weeks of a campus gym, labelled DEMO, instead of your history.")
    var demo = false

    func validate() throws {
        guard (1...52).contains(weeks) else { throw ValidationError("--weeks must be 1 to 52") }
    }

    /// The window of the last `weeks` weeks of `campus`'s history.
    func window(_ campus: CampusOption, _ context: Context) throws -> HistoryWindow {
        try HistoryWindow(settings: campus.settings(context), weeks: weeks, demo: demo, context: context)
    }
}

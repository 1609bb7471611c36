import ArgumentParser
import GymcardCore

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

import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard history export|import`: the occupancy history as files to share or seed.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Export or import the occupancy history.",
        discussion: """
            The history ($XDG_STATE_HOME/gymcard/history.sqlite3; another campus's in \
            $XDG_STATE_HOME/gymcard/campuses/<name>/) holds every reading gymcard fetched. \
            Exports are CSV with the header facility,fetched_at,source_time,occupancy,capacity,status \
            (facility key, ISO 8601 UTC times, source_time empty when unknown, status ok or closed) or a \
            JSON array of objects with the same fields.
            """,
        subcommands: [Export.self, Import.self]
    )

    struct Export: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print the readings as CSV (default) or JSON.")

        @OptionGroup var campus: CampusOption

        @Flag(name: .long, help: "CSV with a header line (the default).")
        var csv = false

        @Flag(name: .long, help: "A JSON array.")
        var json = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Only readings from this day (YYYY-MM-DD, in the facilities' time zone) or time (ISO 8601) on.",
                valueName: "date"))
        var since: String?

        func validate() throws {
            if csv, json { throw ValidationError("give --csv or --json, not both") }
        }

        func run(in context: Context) throws {
            let settings = try campus.settings(context)
            let start = try HistoryFiles.start(since: since, settings: settings, context: context)
            // The first write that fails ends it (a year of history is tens of megabytes of text).
            var failure: NamedOutputProblem?
            try HistoryFiles.export(
                context, campus: settings.campus, from: start, format: json ? .json : .csv
            ) {
                guard failure == nil else { return }
                do throws(NamedOutputProblem) { try NamedOutput.write($0, to: "-") } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    struct Import: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the readings of an export (CSV or JSON) to the history, skipping those it has.",
            discussion: """
                All or nothing: a malformed line is reported with its line number (the CSV header is line \
                1) and nothing from the file is imported (exit 65). - reads standard input.
                """)

        @Argument(
            help: ArgumentHelp("The export to import; - is standard input.", valueName: "file"),
            completion: .files(["csv", "json"]))
        var file: String

        @OptionGroup var campus: CampusOption

        func run(in context: Context) throws {
            let settings = try campus.settings(context)
            Terminal.standardError.say(
                try HistoryImport.run(file, settings: settings, context: context).summary)
        }
    }
}

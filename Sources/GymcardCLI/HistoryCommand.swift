import ArgumentParser
import CivilTime
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import Storage

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
            let start = try since.map { try Self.date($0, zone: settings.timeZone, context: context) }
            // Written as the rows come from SQLite: a year of history is tens of megabytes of text.
            var writeFailure: Failure?
            var writer = HistoryExchange.ExportWriter(format: json ? .json : .csv) { piece in
                guard writeFailure == nil else { return }
                do { try OutputFile.write(piece, to: "-") } catch { writeFailure = error as? Failure }
            }
            try HistoryFiles.openForReading(context, campus: settings.campus)?.forEachReading(
                from: start ?? Date(timeIntervalSince1970: 0),
                to: Date(timeIntervalSince1970: Double(1 << 40))
            ) { writer.add($0) }
            writer.finish()
            if let writeFailure { throw writeFailure }
        }

        /// A day (midnight in the facilities' zone) or an ISO 8601 time.
        static func date(_ text: String, zone timeZone: String, context: Context) throws -> Date {
            if let date = try? Date(text, strategy: .iso8601) { return date }
            let parts = text.split(separator: "-").map { Int($0) }
            guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
                (1...12).contains(month), (1...31).contains(day), text.count == 10
            else {
                throw Failure(
                    "--since \(text) is neither a day (2026-11-01) nor an ISO 8601 time (2026-11-01T08:00:00Z)",
                    status: .usage)
            }
            let zone = try context.zone(timeZone)
            return zone.start(of: LocalDay(year: year, month: month, day: day))
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

        @Argument(help: ArgumentHelp("The export to import; - is standard input.", valueName: "file"))
        var file: String

        @OptionGroup var campus: CampusOption

        func run(in context: Context) throws {
            let bytes: [UInt8]
            let name = file == "-" ? "standard input" : file
            do {
                guard
                    let read = try
                        (file == "-"
                        ? FileContents.readStandardInput(limitBytes: 1 << 28)
                        : FileContents.read(file, limitBytes: 1 << 28))
                else { throw Failure("\(file): no such file or directory", status: .noInput) }
                bytes = read
            } catch let error as StorageError {
                throw Failure("cannot read \(error.description)", status: .noInput)
            }
            let readings: [HistoryReading]
            do { readings = try HistoryExchange.parse(bytes) } catch {
                throw Failure("\(name): \(error); nothing was imported", status: .dataError)
            }
            let settings = try campus.settings(context)
            let added = try HistoryFiles.openForWriting(context, campus: settings.campus).importReadings(
                readings)
            let duplicates = readings.count - added
            Terminal.standardError.say(
                "imported \(added) \(added == 1 ? "reading" : "readings") from \(name)"
                    + (duplicates > 0 ? " (\(duplicates) already in the history)" : ""))
        }
    }
}

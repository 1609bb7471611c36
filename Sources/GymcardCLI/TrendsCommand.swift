import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard trends`: how full each facility usually is, by weekday and half hour.
struct TrendsCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "trends",
        abstract: "Show how full a facility usually is, by weekday and half hour, from the history.",
        discussion: """
            Draws a weekday × time heatmap per facility from the readings gymcard recorded (occupancy, \
            --watch and collect record every fetch; `gymcard collect --install` samples every 5 minutes). \
            Method: over the last --weeks weeks, each day's readings in a 30-minute slot are averaged \
            first and the days then weighted equally; a day counts for a slot with at least 3 readings in \
            it, and a slot is shown when at least 2 days count. Closed readings are left out. Weekdays and \
            times are those of the facilities' time zone (occupancy.timeZone, America/New_York for VT). \
            Colours follow the app (green under 50 %, orange to 75 %, maroon above; lighter is emptier); \
            without colour, shade characters. The line under the grid compares now with the usual. When no \
            facility has a usual value yet (too little history), gymcard says why and exits 1, as `best` \
            does when it has nothing to suggest.
            """
    )

    @Argument(
        help: ArgumentHelp("A facility key or name (default: all).", valueName: "facility"),
        completion: .facilities)
    var facility: String?

    @OptionGroup var campus: CampusOption

    @OptionGroup var weeks: WeeksOption

    @Flag(name: .long, help: "Print every cell as JSON: mean, day count and reading count.")
    var json = false

    @Option(
        name: .long, help: ArgumentHelp("Write the heatmap as a PNG image.", valueName: "file"),
        completion: .pngFiles)
    var png: String?

    @Flag(name: [.short, .long], help: "Write the PNG to standard output even when it is a terminal.")
    var force = false

    @Flag(name: .customLong("no-color"), help: "Draw with shade characters instead of colours.")
    var noColor = false

    func validate() throws {
        if weeks.demo, json || png != nil {
            throw ValidationError("--demo draws text; leave out --json and --png")
        }
    }

    func run(in context: Context) throws {
        let window = try weeks.window(campus, context)
        let facilities = try window.heatmaps(try window.settings.facilities(matching: facility))
        try OutputFile.checkBinary(to: png, what: "a PNG", example: "trends.png", force: force)
        if let png {
            let bytes: [UInt8]
            do { bytes = try window.png(facilities) } catch {
                throw SymbolFileProblem.cannotEncode("\(error)")
            }
            try NamedOutput.write(bytes, to: png)
        }
        let terminal = Terminal(environment: context.environment)
        if json { Terminal.standardOutput.line(window.json(facilities)) }
        if !json, png == nil {
            let off = terminal.reasonColourIsOff(noColorFlag: noColor) != nil
            terminal.printLines(
                window.lines(
                    facilities, colour: off ? .none : terminal.isTrueColour ? .trueColour : .palette,
                    columns: terminal.columns))
        }
        if let missing = HistoryWindow.noUsualValue(facilities) {
            throw Failure(missing, status: .nothingFound)
        }
    }
}

import ArgumentParser
import FoundationEssentials
import GymcardCore
import Imaging
import Occupancy
import Trends

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

    @Argument(help: ArgumentHelp("A facility key or name (default: all).", valueName: "facility"))
    var facility: String?

    @OptionGroup var campus: CampusOption

    @OptionGroup var weeks: WeeksOption

    @Flag(name: .long, help: "Print every cell as JSON: mean, day count and reading count.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Write the heatmap as a PNG image.", valueName: "file"))
    var png: String?

    @Flag(name: [.short, .long], help: "Write the PNG to standard output even when it is a terminal.")
    var force = false

    @Flag(name: .customLong("no-color"), help: "Draw with shade characters instead of colours.")
    var noColor = false

    func run(in context: Context) throws {
        let window = try weeks.window(campus, context)
        let facilities = try window.heatmaps(try window.settings.facilities(matching: facility))
        let (zone, now) = (window.zone, window.now)
        try OutputFile.checkBinary(to: png, what: "a PNG", force: force)
        if let png {
            let bytes: [UInt8]
            do { bytes = try PNGCodec.encode(HeatmapImage.image(facilities, zone: zone, now: now)) } catch {
                throw Failure(error.description, status: .ioError)
            }
            try OutputFile.write(bytes, to: png)
        }
        if json {
            print(
                TrendsJSON.document(
                    facilities, weeks: weeks.weeks, timeZone: window.settings.timeZone, from: window.start,
                    to: now, zone: zone, now: now))
        }
        if !json, png == nil {
            let terminal = Terminal(environment: context.environment)
            let view = HeatmapTextView(colour: colour(terminal))
            terminal.printLines(
                facilities.map { view.lines($0, weeks: weeks.weeks, zone: zone, now: now) }
                    .joined(separator: [""]).map { $0 })
        }
        if let missing = HistoryWindow.noUsualValue(facilities) {
            throw Failure(missing, status: .nothingFound)
        }
    }

    private func colour(_ terminal: Terminal) -> HeatmapTextView.Colour {
        guard terminal.reasonColourIsOff(noColorFlag: noColor) == nil else { return .none }
        let colourTerm = terminal.environment["COLORTERM"]?.lowercased() ?? ""
        return colourTerm == "truecolor" || colourTerm == "24bit" ? .trueColour : .palette
    }
}

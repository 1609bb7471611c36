import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard occupancy`: how full the gyms are.
struct OccupancyCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "occupancy",
        abstract:
            "Show how full War Memorial, McComas and the Bouldering Wall are (or another campus's facilities).",
        discussion: """
            Fetches every facility at once and draws one line each: a bar coloured like the app's (green \
            under 50 %, orange to 75 %, maroon above), people inside, capacity, percent and places left. \
            A facility that cannot be fetched shows its last known value, marked stale with its age; \
            with none it shows as unavailable. Readings are kept in $XDG_STATE_HOME/gymcard/occupancy.json.

            Opening hours (see `gymcard hours`) mark a closed facility "closed" with the time it opens instead of \
            a bar, and a line ends "closes in 25 min" within an hour of closing; times of day are the \
            facilities' own (occupancy.timeZone).

            Status bars: --format waybar prints waybar's custom-module JSON, --format tmux a short line; \
            add --cached to answer from the stored readings without the network (run a --watch, or the \
            plain command now and then, to keep them current). Exit status: 0 all fresh, 75 some stale or \
            unavailable, 69 nothing available, 74 shown but not saved. The status-bar formats exit 0 \
            whenever they printed their line (waybar hides a module whose command fails) and carry the \
            state in it: class stale or unavailable for waybar, * or -- for tmux.
            """
    )

    @Option(name: .long, help: "Output format: text, json, waybar or tmux.")
    var format: OccupancyDisplay.Format?

    @Flag(name: .long, help: "Print JSON (the same as --format json).")
    var json = false

    @Flag(name: [.short, .long], help: "Refresh every 30 s (60 s while everything fails) until Ctrl-C.")
    var watch = false

    @Flag(name: .long, help: "Answer from the stored readings without touching the network.")
    var cached = false

    @Flag(
        name: .long,
        help: "Show the app's sample values, labelled DEMO, without the network (with --watch: a preview).")
    var demo = false

    @Flag(name: .customLong("no-color"), help: "Print without colour codes.")
    var noColor = false

    @OptionGroup var campus: CampusOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) disagree; give one of them")
        }
        if watch, cached { throw ValidationError("--watch fetches; it cannot be combined with --cached") }
        if demo, cached { throw ValidationError("--demo cannot be combined with --cached") }
    }

    var fetchesAtOnce: Bool { !cached && !demo }

    private var chosenFormat: OccupancyDisplay.Format { json ? .json : format ?? .text }

    func run(in context: Context) async throws {
        let settings = try campus.settings(context)
        if demo {
            // Sample values; with --watch a preview whose values drift a little each refresh. Nothing is
            // fetched, stored or recorded.
            let display = display((try? context.zone(settings.timeZone)) ?? .system, context)
            let next = OccupancyPoll.demo(settings.facilities, clock: context.clock)
            guard watch else {
                return Terminal.standardOutput.line(display.lines(next()).joined(separator: "\n"))
            }
            return await watchLoop(display, context) { next() }
        }
        var poll = try OccupancyPoll(settings: settings, context: context)
        let display = display(poll.zone, context)
        poll.readsUsualPercent = display.showsUsualPercent
        if cached { return try finish(poll.cached(), display) }
        let fetcher = try network.fetcher(context)
        if watch { return await watchLoop(display, context) { try? await poll.poll(fetcher: fetcher) } }
        try finish(try await poll.poll(fetcher: fetcher), display)
    }

    private func display(_ zone: LocalTimeZone, _ context: Context) -> OccupancyDisplay {
        let terminal = Terminal(environment: context.environment)
        return OccupancyDisplay(
            format: chosenFormat, columns: terminal.columns,
            colour: terminal.reasonColourIsOff(noColorFlag: noColor) == nil
                ? (terminal.isTrueColour ? .trueColour : .palette) : nil,
            zone: zone)
    }

    /// Prints the outcome; the exit status: 69 nothing to show, 74 the readings could not be saved, 75
    /// partly stale, else 0. Status-bar formats exit 0 whenever they printed their line: waybar hides a
    /// module whose command fails, which would hide exactly the state its `class` carries.
    private func finish(_ outcome: OccupancyPoll.Outcome, _ display: OccupancyDisplay) throws {
        for warning in outcome.warnings { Terminal.standardError.say(warning) }
        Terminal.standardOutput.line(display.lines(outcome).joined(separator: "\n"))
        guard let shortfall = outcome.shortfall(cached: cached) else { return }
        guard chosenFormat.isStatusBar else { throw shortfall }
        if let said = ExitTable.failure(for: shortfall)?.message, !said.isEmpty {
            Terminal.standardError.say(said)
        }
    }

    /// `--watch`: redraw in place on a terminal (text), otherwise one line per refresh. `next` gives each
    /// refresh, `nil` when interrupted. Ctrl-C ends it with status 0 and the cursor shown again.
    private func watchLoop(
        _ display: OccupancyDisplay, _ context: Context, next: () async -> OccupancyPoll.Outcome?
    ) async {
        let redraw = Terminal(environment: [:]).stdoutIsTerminal && chosenFormat == .text
        Interrupt.showsCursor = redraw
        Interrupt.exitStatus = 0
        if redraw { Terminal.standardOutput.write(LinesInPlace.hideCursor) }
        defer { if redraw { Terminal.standardOutput.write(LinesInPlace.showCursor) } }
        var place = LinesInPlace(columns: display.columns)
        await display.watch(
            redraw: redraw, clock: context.clock, next: next,
            draw: { frame in
                Terminal.standardOutput.write(
                    frame.redrawn ? place.frame(frame.lines) : frame.lines.map { $0 + "\n" }.joined())
            }, say: Terminal.standardError.say)
    }
}

extension OccupancyDisplay.Format: ExpressibleByArgument {}

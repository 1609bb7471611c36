import ArgumentParser
import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import OpeningHours
import Storage
import Trends

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

    /// What to print.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, waybar, tmux

        /// A one-line format for status bars, which treat a failing command as "hide the module".
        var isStatusBar: Bool { self == .waybar || self == .tmux }
    }

    @Option(name: .long, help: "Output format: text, json, waybar or tmux.")
    var format: Format?

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

    private var chosenFormat: Format { json ? .json : format ?? .text }

    func run(in context: Context) async throws {
        let settings = try campus.settings(context)
        let clock = context.clock
        let terminal = Terminal(environment: context.environment)
        if demo {
            // Sample values; with --watch a preview whose values drift a little each refresh. Nothing is
            // fetched, stored or recorded.
            var step = 0
            let zone = (try? context.zone(settings.timeZone)) ?? .system
            guard watch else {
                let report = OccupancyReport.demo(facilities: settings.facilities, now: clock.now)
                return print(render(report, settings, terminal, zone, context).joined(separator: "\n"))
            }
            return try await watchLoop(settings, zone, context, terminal) {
                defer { step += 1 }
                return OccupancyPoll.Outcome(
                    report: OccupancyReport.demo(facilities: settings.facilities, now: clock.now, step: step))
            }
        }
        let poll = try OccupancyPoll(settings: settings, context: context)
        if cached {
            let outcome = poll.cached()
            for warning in outcome.warnings { Terminal.standardError.say(warning) }
            print(render(outcome.report, settings, terminal, poll.zone, context).joined(separator: "\n"))
            return try finish(outcome)
        }
        let fetcher = try network.fetcher(context)
        if watch {
            return try await watchLoop(settings, poll.zone, context, terminal) {
                try? await poll.poll(fetcher: fetcher)
            }
        }
        let outcome: OccupancyPoll.Outcome
        do { outcome = try await poll.poll(fetcher: fetcher) } catch { throw Failure.silent(.interrupted) }
        for warning in outcome.warnings { Terminal.standardError.say(warning) }
        print(render(outcome.report, settings, terminal, poll.zone, context).joined(separator: "\n"))
        try finish(outcome)
    }

    /// The report in the chosen format, as lines.
    private func render(
        _ report: OccupancyReport, _ settings: OccupancySettings, _ terminal: Terminal, _ zone: LocalTimeZone,
        _ context: Context
    ) -> [String] {
        switch chosenFormat {
        case .text:
            return OccupancyTextView(
                columns: terminal.columns, colour: colour(terminal), now: report.observedAt, zone: zone
            ).lines(report)
        case .json: return [OccupancyJSON.line(report)]
        case .waybar:
            let usual = HistoryWindow.usualPercents(
                report.facilities.map(\.facility), settings: settings, context: context)
            return [StatusBarFormats.waybar(report, now: report.observedAt, zone: zone, usualPercent: usual)]
        case .tmux: return [StatusBarFormats.tmux(report)]
        }
    }

    private func colour(_ terminal: Terminal) -> OccupancyTextView.Colour? {
        guard terminal.reasonColourIsOff(noColorFlag: noColor) == nil else { return nil }
        let colourTerm = terminal.environment["COLORTERM"]?.lowercased() ?? ""
        return colourTerm == "truecolor" || colourTerm == "24bit" ? .trueColour : .palette
    }

    /// The exit status: 69 nothing to show, 74 the readings could not be saved, 75 partly stale, else 0.
    /// Status-bar formats exit 0 whenever they printed their line: waybar hides a module whose command
    /// fails, which would hide exactly the state its `class` carries.
    private func finish(_ outcome: OccupancyPoll.Outcome) throws {
        guard let failure = failure(of: outcome) else { return }
        guard !chosenFormat.isStatusBar else {
            if !failure.message.isEmpty { Terminal.standardError.say(failure.message) }
            return
        }
        throw failure
    }

    private func failure(of outcome: OccupancyPoll.Outcome) -> Failure? {
        if outcome.report.completeness == .nothing {
            return Failure(
                cached
                    ? "no occupancy data stored yet; run `gymcard occupancy` (without --cached) first"
                    : "no occupancy data: nothing could be fetched and nothing is stored; check the network and try again",
                status: .unavailable)
        }
        let notKept = [
            outcome.saveFailure.map { "not saved: \($0)" },
            outcome.notRecorded.map { "not recorded in the history: \($0)" },
        ].compactMap { $0 }
        if !notKept.isEmpty {
            return Failure("the readings were shown but " + notKept.joined(separator: "; "), status: .ioError)
        }
        return outcome.report.completeness == .partial ? Failure.silent(.staleData) : nil
    }

    /// `--watch`: redraw in place on a terminal (text), otherwise one line per refresh (JSON lines for
    /// text piped elsewhere). `next` gives each refresh, `nil` when interrupted. Ctrl-C ends it with
    /// status 0 and the cursor shown again.
    private func watchLoop(
        _ settings: OccupancySettings, _ zone: LocalTimeZone, _ context: Context, _ terminal: Terminal,
        next: () async -> OccupancyPoll.Outcome?
    ) async throws {
        let clock = context.clock
        let redraw = terminal.stdoutIsTerminal && chosenFormat == .text
        let hideCursor = "\u{1B}[?25l"
        let showCursor = "\u{1B}[?25h"
        Interrupt.showsCursor = redraw
        Interrupt.exitStatus = 0
        if redraw { Terminal.standardOutput.write(hideCursor) }
        defer { if redraw { Terminal.standardOutput.write(showCursor) } }
        var linesDrawn = 0
        while true {
            guard let tick = await next() else { return }
            let (report, warnings, notRecorded) = (tick.report, tick.warnings, tick.notRecorded)
            let waitSeconds = report.completeness == .nothing ? 60 : 30
            if redraw {
                var lines = render(report, settings, terminal, zone, context)
                lines += warnings.map { "! " + $0 }
                if let failure = tick.saveFailure { lines.append("! not saved: \(failure)") }
                if let notRecorded { lines.append("! not recorded in the history: \(notRecorded)") }
                let time = LocalTime.clock(report.observedAt, zone: zone)
                lines.append("updated \(time); next in \(waitSeconds) s; Ctrl-C to quit")
                // Up to the first line drawn last time, clear to the end of the screen, draw again.
                let moveUp = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)F" : ""
                let clipped = lines.map { clip($0, to: terminal.columns) }
                Terminal.standardOutput.write(moveUp + "\u{1B}[J" + clipped.joined(separator: "\n") + "\n")
                linesDrawn = lines.count
            } else {
                for warning in warnings { Terminal.standardError.say(warning) }
                if let notRecorded {
                    Terminal.standardError.say("not recorded in the history: \(notRecorded)")
                }
                let line: String
                switch chosenFormat {
                case .text, .json: line = OccupancyJSON.line(report)
                case .waybar, .tmux: line = render(report, settings, terminal, zone, context)[0]
                }
                Terminal.standardOutput.write(line + "\n")
            }
            do { try await clock.sleep(seconds: Double(waitSeconds)) } catch { return }
        }
    }

    /// Cuts a warning line to the terminal width so a redraw never wraps (which would break "move up").
    private func clip(_ line: String, to columns: Int?) -> String {
        guard let columns, !line.contains("\u{1B}"), line.count > columns else { return line }
        return String(line.prefix(max(1, columns - 1))) + "…"
    }
}

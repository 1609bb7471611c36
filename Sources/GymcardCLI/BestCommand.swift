import ArgumentParser
import CivilTime
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours
import TerminalText
import Trends

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

    @Argument(help: ArgumentHelp("A facility key or name (default: all).", valueName: "facility"))
    var facility: String?

    @Option(name: .long, help: ArgumentHelp("How far ahead to look, e.g. 12h or 90m.", valueName: "duration"))
    var within = DurationArgument(seconds: 12 * 3600, text: "12h")

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp("How long the workout lasts, e.g. 90m.", valueName: "duration"))
    var duration = DurationArgument(seconds: 90 * 60, text: "90m")

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
        let chosen = try window.settings.facilities(matching: facility)
        let (horizon, length) = (within.seconds, duration.seconds)
        let access = try HoursAccess(
            facilities: chosen.map(\.key), zone: window.zone, now: window.now, campus: window.settings.campus,
            context: context)
        let days = access.days(from: window.now, to: window.now.addingTimeInterval(Double(horizon)))
        let hours = try await access.loadHandingOver(days, network: network, context: context)
        for warning in hours.warnings { Terminal.standardError.say(warning) }
        let labels = CivilLabels(zone: window.zone, now: window.now)
        var lines: [String] = []
        var suggested = false
        for (facility, shown) in zip(chosen, try window.heatmaps(chosen)) {
            if !lines.isEmpty { lines.append("") }
            let name = shown.name.terminalSafe
            switch window.suggestions(
                shown.heatmap, hours: hours.hours[facility.key] ?? .unknown, days: days,
                lengthSeconds: length,
                horizonSeconds: horizon)
            {
            case .thinHistory(let heatmap): lines.append("\(name): " + Self.thin(heatmap, weeks: weeks.weeks))
            case .outsideHours(let known):
                lines.append(
                    "\(name): no suggestion: "
                        + (known
                            ? "no \(DurationWords.text(length)) in the next \(DurationWords.text(horizon)) lies "
                                + "wholly within known opening hours (see `gymcard hours`)"
                            : "its opening hours are unknown, and unknown is never taken for open (see "
                                + "`gymcard hours`; the config file's hours.facilities.\(facility.key) can give them)")
                )
            case .windows(let windows):
                suggested = true
                lines.append(
                    "\(name): the quietest \(DurationWords.text(length)) in the next \(DurationWords.text(horizon))"
                        + " (from \(weeks.weeks) weeks of history, within opening hours)")
                let rows = windows.map { window in
                    (
                        "\(labels.moment(window.start)) – \(labels.clock(window.end))",
                        "usually \(Int(window.meanPercent.rounded()))%  \(QuietWindows.band(window.meanPercent))"
                    )
                }
                let width = rows.map(\.0.count).max() ?? 0
                lines += rows.map {
                    "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1
                }
            }
        }
        Terminal(environment: context.environment).printLines(lines)
        if !suggested { throw Failure.silent(.nothingFound) }
    }

    /// Why nothing is suggested: how many readings there are and what to do.
    static func thin(_ heatmap: WeeklyHeatmap, weeks: Int) -> String {
        let readings = heatmap.readingCount == 1 ? "1 reading" : "\(heatmap.readingCount) readings"
        let days = heatmap.dayCount == 1 ? "1 day" : "\(heatmap.dayCount) days"
        return
            "not enough history for a suggestion: \(readings) on \(days) in the last \(weeks) weeks, and each "
            + "half hour must be seen on at least \(WeeklyHeatmap.minimumDays) days; keep collecting "
            + "(`gymcard collect --install` samples every 5 minutes): about 2 weeks covers every half hour"
    }
}

import CivilTime
import FoundationEssentials
import Occupancy
import OpeningHours
import TerminalText

/// One-line answers for status bars: waybar's custom-module JSON and a plain line for tmux.
public enum StatusBarFormats {
    /// `WM 58% · McC 38% · Wall 4/8`: percent for the gyms, people/capacity for small rooms; a stale value
    /// ends in `*`, an unavailable one reads `--`, a closed one `closed`.
    public static func summary(_ report: OccupancyReport, separator: String) -> String {
        let parts = report.facilities.map { status -> String in
            if status.opening.isClosed { return "\(status.facility.shortName) closed" }
            guard let reading = status.reading else { return "\(status.facility.shortName) --" }
            let value =
                reading.countsPeople && reading.capacity < 50
                ? "\(reading.occupancy)/\(reading.capacity)" : "\(report.percent(reading))%"
            return "\(status.facility.shortName) \(value)\(status.status == .stale ? "*" : "")"
        }
        return (report.isDemo ? "DEMO " : "") + parts.joined(separator: separator)
    }

    /// tmux's `status-right`: `WM 58% McC 38% Wall 4/8`, terminal-safe, with `#` doubled: tmux reads
    /// `#[…]` in a `#()` command's output as a style and drops `#(…)`, and shows `##` as `#` (tmux 3.3a).
    /// Short names come from the config file or a page.
    public static func tmux(_ report: OccupancyReport) -> String {
        String(summary(report, separator: " ").terminalSafe.flatMap { $0 == "#" ? ["#", "#"] : [$0] })
    }

    /// waybar's custom module: `{"text", "alt", "tooltip", "class", "percentage"}`.
    ///
    /// `class` is the busiest open facility's level (`low` under 50 %, `medium` to 75 %, `high`), plus
    /// `stale` when a value is old, `closed` when a facility is closed, or `unavailable` alone when nothing
    /// is known; `alt` (for waybar's icons by state) is that level, `closed` when every facility is
    /// closed, or `unavailable`; `percentage` is the busiest open facility's percent, for `format-icons`.
    /// `usualPercent` (facility key → percent) adds "usually N% now" to a facility's tooltip line when the
    /// history has the current half hour; the tooltip also says when a facility opens or closes.
    /// waybar reads `text` and `tooltip` as Pango markup (its custom module's `escape` is off by default),
    /// so `&`, `<` and `>` from a name are written as entities; JSON escapes every control character.
    public static func waybar(
        _ report: OccupancyReport, now: Date, zone: LocalTimeZone = .system,
        usualPercent: [String: Double] = [:]
    ) -> String {
        struct Module: Encodable {
            var text: String
            var alt: String
            var tooltip: String
            var `class`: [String]
            var percentage: Int
        }
        let open = report.facilities.filter { !$0.opening.isClosed }
        let busiest = open.compactMap { $0.reading.map(report.percent) }.max()
        let allClosed = open.isEmpty && !report.facilities.isEmpty
        let level = busiest.map { $0 < 50 ? "low" : $0 < 75 ? "medium" : "high" }
        var classes: [String] = []
        if let level { classes.append(level) }
        if report.facilities.contains(where: { $0.status == .stale && !$0.opening.isClosed }) {
            classes.append("stale")
        }
        if report.facilities.contains(where: { $0.opening.isClosed }) { classes.append("closed") }
        if busiest == nil, !allClosed { classes.append("unavailable") }
        if report.isDemo { classes.append("demo") }
        let tooltip = report.facilities.map { status -> String in
            let usual = usualPercent[status.facility.key].map { " · usually \(Int($0.rounded()))% now" } ?? ""
            if case .closed(let opensAt) = status.opening {
                let opens = opensAt.map { ", " + OpeningWords.opens($0, zone: zone, now: now) } ?? ""
                return "\(status.facility.name): closed" + opens
            }
            guard let reading = status.reading else {
                return "\(status.facility.name): " + (status.noFigure ? "no figure" : "unavailable") + usual
            }
            let percent = report.percent(reading)
            var line =
                reading.countsPeople
                ? "\(status.facility.name): \(reading.occupancy) of \(reading.capacity) (\(percent)%), \(reading.remaining) left"
                : "\(status.facility.name): \(percent)% full"
            if status.status == .stale, let observedAt = status.observedAt {
                line += ", \(Age.ago(from: observedAt, to: now))"
            }
            if let old = OccupancyReport.oldCount(status, now: now) { line += ", " + old }
            if let closing = OpeningWords.closingSoon(status.opening, now: now) { line += ", " + closing }
            return line + usual
        }
        let module = Module(
            text: pangoEscaped(summary(report, separator: " · ")),
            alt: allClosed ? "closed" : level ?? "unavailable",
            tooltip: pangoEscaped(tooltip.joined(separator: "\n")), class: classes, percentage: busiest ?? 0)
        return OccupancyJSON.encode(module)
    }

    /// Text as Pango markup shows it as it is: `&`, `<` and `>` as entities.
    static func pangoEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

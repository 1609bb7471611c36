import Fetching
import FoundationEssentials

/// One-line answers for status bars: waybar's custom-module JSON and a plain line for tmux.
public enum StatusBarFormats {
    /// `WM 58% · McC 38% · Wall 4/8`: percent for the gyms, people/capacity for small rooms; a stale value
    /// ends in `*`, an unavailable one reads `--`.
    public static func summary(_ report: OccupancyReport, separator: String) -> String {
        let parts = report.facilities.map { status -> String in
            guard let reading = status.reading else { return "\(status.facility.shortName) --" }
            let value =
                reading.capacity < 50 ? "\(reading.occupancy)/\(reading.capacity)" : "\(reading.percent)%"
            return "\(status.facility.shortName) \(value)\(status.status == .stale ? "*" : "")"
        }
        return (report.isDemo ? "DEMO " : "") + parts.joined(separator: separator)
    }

    /// tmux's `status-right`: `WM 58% McC 38% Wall 4/8`.
    public static func tmux(_ report: OccupancyReport) -> String { summary(report, separator: " ") }

    /// waybar's custom module: `{"text", "tooltip", "class", "percentage"}`.
    ///
    /// `class` is the busiest facility's level (`low` under 50 %, `medium` to 75 %, `high`), plus `stale`
    /// when a value is old, or `unavailable` alone when nothing is known; `percentage` is the busiest
    /// facility's percent, for waybar's `format-icons`. `usualPercent` (facility key → percent) adds
    /// "usually N% now" to a facility's tooltip line when the history has the current half hour.
    public static func waybar(_ report: OccupancyReport, now: Date, usualPercent: [String: Double] = [:])
        -> String
    {
        struct Module: Encodable {
            var text: String
            var tooltip: String
            var `class`: [String]
            var percentage: Int
        }
        let known = report.facilities.compactMap { $0.reading }
        let busiest = known.map(\.percent).max()
        var classes: [String] = []
        if let busiest { classes.append(busiest < 50 ? "low" : busiest < 75 ? "medium" : "high") }
        if report.facilities.contains(where: { $0.status == .stale }) { classes.append("stale") }
        if busiest == nil { classes.append("unavailable") }
        if report.isDemo { classes.append("demo") }
        let tooltip = report.facilities.map { status -> String in
            let usual = usualPercent[status.facility.key].map { " · usually \(Int($0.rounded()))% now" } ?? ""
            guard let reading = status.reading else { return "\(status.facility.name): unavailable" + usual }
            var line =
                "\(status.facility.name): \(reading.occupancy) of \(reading.capacity) (\(reading.percent)%), \(reading.remaining) left"
            if status.status == .stale, let observedAt = status.observedAt {
                line += ", \(Age.ago(from: observedAt, to: now))"
            }
            return line + usual
        }
        let module = Module(
            text: summary(report, separator: " · "), tooltip: tooltip.joined(separator: "\n"), class: classes,
            percentage: busiest ?? 0)
        return OccupancyJSON.encode(module)
    }
}

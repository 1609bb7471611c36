import CivilTime
import FoundationEssentials
import Imaging
import TerminalText

/// The heatmap on a terminal: a title, an hour ruler, seven rows of 48 half-hour cells (53 columns),
/// a legend and the "now" line; on a terminal narrower than that, two grids of 24 cells (29 columns),
/// midnight to noon and noon to midnight, and the prose wrapped. Coloured cells in truecolour or xterm's 256 colours; under `NO_COLOR`,
/// when piped or with `--no-color`, shade characters instead. The current slot is marked `◆`.
public struct HeatmapTextView: Sendable {
    /// How cells are drawn.
    public enum Colour: Sendable {
        /// 24-bit colour.
        case trueColour
        /// xterm's 256-colour palette.
        case palette
        /// No escape codes: shade characters.
        case none
    }

    /// How to draw.
    public var colour: Colour
    /// The terminal's width, `nil` for no limit: below 53 the day is split at noon into two grids.
    public var columns: Int?

    /// Creates a view.
    public init(colour: Colour, columns: Int? = nil) {
        self.colour = colour
        self.columns = columns
    }

    /// What the view shows for one facility.
    public struct Facility: Sendable {
        /// The facility's display name.
        public var name: String
        /// Its heatmap.
        public var heatmap: WeeklyHeatmap
        /// Its percent right now, when a fresh reading is known.
        public var currentPercent: Int?

        /// Creates the input.
        public init(name: String, heatmap: WeeklyHeatmap, currentPercent: Int?) {
            self.name = name
            self.heatmap = heatmap
            self.currentPercent = currentPercent
        }
    }

    /// `1 reading`, `2 readings`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// The lines for one facility.
    public func lines(_ facility: Facility, weeks: Int, zone: LocalTimeZone, now: Date) -> [String] {
        let heatmap = facility.heatmap
        var lines =
            ("\(facility.name.terminalSafe) · usual occupancy by half hour · last \(weeks) weeks "
            + "(\(Self.count(heatmap.readingCount, "reading")) on \(Self.count(heatmap.dayCount, "day")))")
            .wrapped(columns: columns, indent: 2)
        let slots = WeeklyHeatmap.slotsPerDay
        // A whole day's row needs 53 columns; narrower, mornings and afternoons are drawn as two grids.
        let halves = (columns ?? .max) < 5 + slots ? [0..<slots / 2, slots / 2..<slots] : [0..<slots]
        let position = WeeklyHeatmap.position(of: now, zone: zone)
        var anyClosed = false
        for (index, half) in halves.enumerated() {
            if index > 0 { lines.append("") }
            var ruler = Array(repeating: Character(" "), count: 5 + half.count)
            for hour in stride(from: half.lowerBound / 2, to: half.upperBound / 2, by: 3) {
                for (offset, digit) in String(hour).enumerated() {
                    ruler[5 + (hour * 2 - half.lowerBound) + offset] = digit
                }
            }
            lines.append(String(ruler))
            for weekday in 0..<7 {
                var line = WeeklyHeatmap.weekdayNames[weekday] + "  "
                for slot in half {
                    let cell = heatmap.cells[weekday][slot]
                    let isNow = weekday == position.weekday && slot == position.slot
                    if cell.meanPercent == nil, cell.closedReadings > 0 { anyClosed = true }
                    line += draw(cell, isNow: isNow)
                }
                lines.append(line)
            }
        }
        let legend =
            (colour == .none
                ? ["░ <25%", "▒ <50%", "▓ <75%", "█ 75%+"] : ["green <50%,", "orange <75%,", "maroon 75%+"])
            + ["· no data"] + (anyClosed ? ["× closed"] : []) + ["◆ now"]
        lines += Self.packed(legend, columns: columns, indent: 5)
        lines += Self.comparison(current: facility.currentPercent, usual: heatmap.cell(at: now, zone: zone))
            .wrapped(columns: columns, indent: 2)
        return lines
    }

    /// The legend's items two spaces apart, each line starting with `indent` spaces, a new line before an
    /// item that would pass `columns` (an item is never split: "░ <25%" belongs together).
    static func packed(_ items: [String], columns: Int?, indent: Int) -> [String] {
        let start = String(repeating: " ", count: indent)
        var lines = [start]
        for (index, item) in items.enumerated() {
            // The colour names read as a list: one space after their comma, two after the rest.
            let separator = index == 0 ? "" : items[index - 1].hasSuffix(",") ? " " : "  "
            if let columns, lines[lines.count - 1] != start,
                lines[lines.count - 1].count + separator.count + item.count > columns
            {
                lines.append(start + item)
            } else {
                lines[lines.count - 1] += separator + item
            }
        }
        return lines
    }

    /// `now 41% · usually 28% at this time · busier than usual` (within 5 points: about as usual).
    public static func comparison(current: Int?, usual cell: WeeklyHeatmap.Cell) -> String {
        var parts: [String] = []
        parts.append(current.map { "now \($0)%" } ?? "now unknown")
        guard let usual = cell.meanPercent else {
            parts.append("not enough history for this time yet")
            return parts.joined(separator: " · ")
        }
        parts.append("usually \(Int(usual.rounded()))% at this time")
        if let current {
            let difference = Double(current) - usual
            parts.append(
                abs(difference) <= 5
                    ? "about as usual" : difference > 0 ? "busier than usual" : "quieter than usual")
        }
        return parts.joined(separator: " · ")
    }

    private func draw(_ cell: WeeklyHeatmap.Cell, isNow: Bool) -> String {
        guard let percent = cell.meanPercent else {
            let mark = isNow ? "◆" : cell.closedReadings > 0 ? "×" : "·"
            return colour == .none ? mark : "\u{1B}[2m" + mark + "\u{1B}[22m"
        }
        let mark = isNow ? "◆" : " "
        switch colour {
        case .none: return isNow ? "◆" : String(HeatmapStyle.shade(percent))
        case .trueColour:
            let value = HeatmapStyle.colour(percent)
            return "\u{1B}[48;2;\(value.red);\(value.green);\(value.blue);38;2;0;0;0m\(mark)\u{1B}[0m"
        case .palette:
            return
                "\u{1B}[48;5;\(HeatmapStyle.palette256(HeatmapStyle.colour(percent)));38;5;16m\(mark)\u{1B}[0m"
        }
    }
}

import CivilTime
import FoundationEssentials
import Occupancy
import OpeningHours
import TerminalText

/// The text view: one line per facility with a segmented bar coloured by the app's thresholds.
///
/// ```
/// War Memorial Hall  ████████░░░░░░   700 / 1.2k   58%   500 left
/// McComas Hall       ████░░░░░░░░░░   230 / 600    38%   370 left
/// Bouldering Wall    ████░░░░           4 / 8      50%     4 left
/// ```
/// Narrow terminals lose the `left` column, then get short names, then lose the bars. A facility known to
/// be closed reads `closed · opens 6:00 AM` instead of a bar; within an hour of closing a line ends
/// `closes in 25 min`. A vendor campus shows over capacity as it is (`124%`), a count its source last
/// updated long ago with its age (`count from 3 h ago`), and a zone listed without a figure as `no figure`.
public struct OccupancyTextView: Sendable {
    /// How colour is written, when it is.
    public enum Colour: Sendable {
        /// 24-bit colour, the app's exact colours (`COLORTERM=truecolor`).
        case trueColour
        /// The 256-colour palette's nearest colours.
        case palette
    }

    /// The width to fit, or `nil` for no limit.
    public var columns: Int?
    /// Colour, or `nil` for plain text.
    public var colour: Colour?
    /// Now, for the ages of stale values and the time to closing.
    public var now: Date
    /// The facilities' zone, for opening times.
    public var zone: LocalTimeZone

    /// Creates a view.
    public init(columns: Int?, colour: Colour?, now: Date, zone: LocalTimeZone = .system) {
        self.columns = columns
        self.colour = colour
        self.now = now
        self.zone = zone
    }

    /// The report's lines, without trailing newlines.
    public func lines(_ report: OccupancyReport) -> [String] {
        let label = (columns ?? 80) < 45 ? "DEMO values" : "DEMO: the app's sample values, not live data"
        let header = report.isDemo ? [paint(label, code: "1")] : []
        let layouts: [Layout] = [
            Layout(shortNames: false, bars: true, remaining: true),
            Layout(shortNames: false, bars: true, remaining: false),
            Layout(shortNames: true, bars: true, remaining: false),
            Layout(shortNames: true, bars: false, remaining: false),
        ]
        for layout in layouts {
            let rendered = report.facilities.map { render($0, in: report, layout: layout) }
            if let columns, rendered.contains(where: { $0.width > columns }), layout != layouts.last {
                continue
            }
            return header + rendered.map(\.text)
        }
        return header
    }

    struct Layout: Equatable {
        var shortNames: Bool
        var bars: Bool
        var remaining: Bool
    }

    /// A line and its width on screen (without escape codes).
    struct Rendered {
        var text = ""
        var width = 0

        mutating func append(_ plain: String, painted: String? = nil) {
            text += painted ?? plain
            width += plain.count
        }
    }

    private func render(_ status: FacilityStatus, in report: OccupancyReport, layout: Layout) -> Rendered {
        // Names come from the config file or a page: terminal-safe, and measured as shown.
        let names = report.facilities.map {
            (layout.shortNames ? $0.facility.shortName : $0.facility.name).terminalSafe
        }
        let nameWidth = names.map(\.count).max() ?? 0
        let barWidth = layout.bars ? (report.facilities.map(\.facility.segments).max() ?? 0) : 0
        let name = (layout.shortNames ? status.facility.shortName : status.facility.name).terminalSafe
        var line = Rendered()
        line.append(pad(name, to: nameWidth))
        if case .closed(let opensAt) = status.opening {
            let text = "closed" + (opensAt.map { " · " + OpeningWords.opens($0, zone: zone, now: now) } ?? "")
            line.append("  ")
            line.append(text, painted: paint(text, code: "2"))
            return line
        }
        guard let reading = status.reading else {
            let word = status.noFigure ? "no figure" : "unavailable"
            line.append("  ")
            line.append(word, painted: paint(word, code: "2"))
            return line
        }
        if layout.bars {
            line.append("  ")
            let (plain, painted) = bar(reading.fraction, segments: status.facility.segments)
            line.append(plain, painted: painted)
            line.append(String(repeating: " ", count: barWidth - status.facility.segments))
        }
        if reading.countsPeople {
            line.append(
                "  " + leftPad(Self.count(reading.occupancy), to: 4) + " / "
                    + pad(Self.count(reading.capacity), to: 4))
        } else {
            // The page shows only a percent: no head count is invented; the column stays aligned.
            line.append(String(repeating: " ", count: 13))
        }
        line.append("  " + leftPad("\(report.percent(reading))%", to: 4))
        if layout.remaining, reading.countsPeople {
            line.append("  " + leftPad(Self.count(reading.remaining), to: 4) + " left")
        }
        if status.status == .stale {
            let age = status.observedAt.map { " (read " + Age.ago(from: $0, to: now) + ")" } ?? ""
            // A value read moments ago is not stale, only not refreshed by this fetch, which failed.
            let seconds = status.observedAt.map { now.timeIntervalSince($0) } ?? .infinity
            let label = (seconds > -5 && seconds < 60 ? "not refreshed" : "stale") + age
            line.append("  ")
            line.append(label, painted: paint(label, code: "33"))
        }
        if let old = OccupancyReport.oldCount(status, now: now) {
            line.append("  ")
            line.append(old, painted: paint(old, code: "33"))
        }
        if let closing = OpeningWords.closingSoon(status.opening, now: now) {
            line.append("  ")
            line.append(closing, painted: paint(closing, code: "33"))
        }
        return line
    }

    /// The bar: filled segments coloured by their position (green under 50 %, orange to 75 %, maroon).
    func bar(_ fraction: Double, segments: Int) -> (plain: String, painted: String) {
        var filled = Int((fraction * Double(segments)).rounded())
        if fraction > 0 { filled = max(filled, 1) }
        let plain = String(repeating: "█", count: filled) + String(repeating: "░", count: segments - filled)
        guard colour != nil else { return (plain, plain) }
        // One escape sequence per run of segments of the same level, not one per segment.
        var painted = ""
        var run: (level: Level, count: Int)?
        for index in 0..<filled {
            let position = Double(index) / Double(segments)
            let level: Level = position < 0.5 ? .low : position < 0.75 ? .medium : .high
            if let current = run, current.level != level {
                painted += paint(String(repeating: "█", count: current.count), level: current.level)
                run = nil
            }
            run = (level, (run?.count ?? 0) + 1)
        }
        if let run { painted += paint(String(repeating: "█", count: run.count), level: run.level) }
        if filled < segments { painted += paint(String(repeating: "░", count: segments - filled), code: "2") }
        return (plain, painted)
    }

    enum Level { case low, medium, high }

    private func paint(_ text: String, level: Level) -> String {
        switch (colour, level) {
        case (nil, _): return text
        case (.trueColour, .low): return paint(text, code: "38;2;31;191;114")
        case (.trueColour, .medium): return paint(text, code: "38;2;255;106;45")
        case (.trueColour, .high): return paint(text, code: "38;2;176;26;93")
        case (.palette, .low): return paint(text, code: "38;5;35")
        case (.palette, .medium): return paint(text, code: "38;5;202")
        case (.palette, .high): return paint(text, code: "38;5;125")
        }
    }

    private func paint(_ text: String, code: String) -> String {
        colour == nil ? text : "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// Counts the app's way: `999`, `1.0k`, `1.2k`, `12.3k` (tenths truncated). The tenth is always
    /// written, so that `1.0k / 1.2k` compares at a glance (`1k / 1.2k` read as a different unit).
    public static func count(_ value: Int) -> String {
        guard value >= 1000 else { return "\(value)" }
        let tenths = value / 100
        return "\(tenths / 10).\(tenths % 10)k"
    }

    private func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func leftPad(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

import CivilTime
import FoundationEssentials
import GymcardCore
import Occupancy
import OccupancyViews
import Trends

/// How `occupancy` shows a poll: in one of its formats, once or as a `--watch` that refreshes until
/// interrupted, and what the poll lacked (the exit status is the caller's).
public struct OccupancyDisplay: Sendable {
    /// What to print.
    public enum Format: String, CaseIterable, Sendable {
        case text, json, waybar, tmux

        /// A one-line format for status bars, which treat a failing command as "hide the module".
        public var isStatusBar: Bool { self == .waybar || self == .tmux }
    }

    /// The format.
    public var format: Format
    /// The terminal's width (text), when known.
    public var columns: Int?
    /// The text format's colours; `nil`: none.
    public var colour: OccupancyTextView.Colour?
    /// The facilities' zone: the times of day shown (opening, "updated").
    public var zone: LocalTimeZone

    /// Creates a display.
    public init(format: Format, columns: Int?, colour: OccupancyTextView.Colour?, zone: LocalTimeZone) {
        self.format = format
        self.columns = columns
        self.colour = colour
        self.zone = zone
    }

    /// Whether the format shows the usual percent (so the poll is to read it: `OccupancyPoll.readsUsualPercent`).
    public var showsUsualPercent: Bool { format == .waybar }

    /// A poll's outcome in the format, as lines: from what it carries alone (no file is read).
    public func lines(_ outcome: OccupancyPoll.Outcome) -> [String] {
        let report = outcome.report
        switch format {
        case .text:
            return OccupancyTextView(columns: columns, colour: colour, now: report.observedAt, zone: zone)
                .lines(report)
        case .json: return [OccupancyJSON.line(report)]
        case .waybar:
            return [
                StatusBarFormats.waybar(
                    report, now: report.observedAt, zone: zone, usualPercent: outcome.usualPercent)
            ]
        case .tmux: return [StatusBarFormats.tmux(report)]
        }
    }

    /// Seconds until the next refresh of a watch: 30, or 60 while nothing can be read.
    public static func refreshSeconds(_ report: OccupancyReport) -> Int {
        report.completeness == .nothing ? 60 : 30
    }

    /// One refresh of a `--watch`. To be redrawn in place (`redraw`, text on a terminal): the lines, the
    /// warnings, and when it was updated. Otherwise one line (JSON lines for text piped elsewhere) with the
    /// warnings apart, for standard error.
    public func watchFrame(_ outcome: OccupancyPoll.Outcome, redraw: Bool) -> WatchFrame {
        let report = outcome.report
        let notRecorded = outcome.notRecorded.map { "not recorded in the history: \($0)" }
        guard redraw else {
            let line = format == .text || format == .json ? OccupancyJSON.line(report) : lines(outcome)[0]
            return WatchFrame(
                lines: [line], redrawn: false, warnings: outcome.warnings + [notRecorded].compactMap { $0 })
        }
        var shown = lines(outcome) + outcome.warnings.map { "! " + $0 }
        if let failure = outcome.saveFailure { shown.append("! not saved: \(failure)") }
        if let notRecorded { shown.append("! " + notRecorded) }
        let time = LocalTime.clock(report.observedAt, zone: zone)
        shown.append("updated \(time); next in \(Self.refreshSeconds(report)) s; Ctrl-C to quit")
        return WatchFrame(lines: shown, redrawn: true, warnings: [])
    }

    /// What one refresh shows.
    public struct WatchFrame: Sendable, Equatable {
        /// For standard output: to be redrawn in place (`redrawn`), or written as they are.
        public var lines: [String]
        /// Whether `lines` replace the last frame's on the terminal (Console's `LinesInPlace`).
        public var redrawn: Bool
        /// Lines for standard error.
        public var warnings: [String]
    }

    /// Refreshes until `next` gives `nil` (interrupted) or `clock`'s sleep is cancelled, giving each
    /// frame to `draw` and saying its warnings with `say`.
    public func watch(
        redraw: Bool, clock: CurrentTime, next: () async -> OccupancyPoll.Outcome?,
        draw: (WatchFrame) -> Void,
        say: (String) -> Void
    ) async {
        while let outcome = await next() {
            let frame = watchFrame(outcome, redraw: redraw)
            for warning in frame.warnings { say(warning) }
            draw(frame)
            do { try await clock.sleep(seconds: Double(Self.refreshSeconds(outcome.report))) } catch {
                return
            }
        }
    }
}

/// What a poll lacked: nothing to show, readings not kept, or some stale.
public enum OccupancyShortfall: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing fetched and nothing stored (`cached`: only the stored readings were asked for).
    case nothingAvailable(cached: Bool)
    /// Shown, but not saved or not recorded: why.
    case notKept(String)
    /// Some facility is stale or unavailable (its line says so; nothing more to say).
    case partlyStale

    /// What was lacking, for standard error; empty for ``partlyStale``.
    public var description: String {
        switch self {
        case .nothingAvailable(cached: true):
            "no occupancy data stored yet"
        case .nothingAvailable(cached: false):
            "no occupancy data: nothing could be fetched and nothing is stored; check the network and try again"
        case .notKept(let why): "the readings were shown but " + why
        case .partlyStale: ""
        }
    }
}

extension OccupancyPoll.Outcome {
    /// What this poll lacked, or `nil` when everything is fresh and kept.
    public func shortfall(cached: Bool) -> OccupancyShortfall? {
        if report.completeness == .nothing { return .nothingAvailable(cached: cached) }
        let notKept = [
            saveFailure.map { "not saved: \($0)" }, notRecorded.map { "not recorded in the history: \($0)" },
        ].compactMap { $0 }
        if !notKept.isEmpty { return .notKept(notKept.joined(separator: "; ")) }
        return report.completeness == .partial ? .partlyStale : nil
    }
}

import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import OpeningHours
import TerminalText
import Trends

/// The last weeks of a campus's history, as `trends` and `best` read it: a heatmap per facility in the
/// facilities' own zone, with the percent now when a fresh reading is stored.
public struct HistoryWindow: Sendable {
    /// The campus's settings.
    public let settings: OccupancySettings
    /// The facilities' zone.
    public let zone: LocalTimeZone
    /// Now.
    public let now: Date
    /// How many weeks back.
    public let weeks: Int
    /// Whether it shows ``DemoGym``'s made-up history and hours instead of the campus's (`--demo`).
    public let isDemo: Bool
    private let context: Context

    /// The window of `weeks` weeks up to now, in the facilities' zone; `demo`: of ``DemoGym``'s history.
    public init(settings: OccupancySettings, weeks: Int, demo: Bool = false, context: Context)
        throws(ContextProblem)
    {
        self.settings = settings
        zone = try context.zone(settings.timeZone)
        now = context.clock.now
        self.weeks = weeks
        isDemo = demo
        self.context = context
    }

    /// When the window begins.
    public var start: Date { now.addingTimeInterval(-Double(weeks) * 7 * 86_400) }

    /// Each facility's heatmap; an absent history gives empty heatmaps.
    public func heatmaps(_ facilities: [Facility]) throws(HistoryError) -> [HeatmapTextView.Facility] {
        if isDemo {
            let hours = DemoGym.hours(facilities, days: [zone.day(of: now)], zone: zone)
            return facilities.map { facility in
                let open = hours[facility.key]?.state(at: now, zone: zone).isOpen == true
                return HeatmapTextView.Facility(
                    name: facility.name,
                    heatmap: WeeklyHeatmap(
                        facility: facility.key,
                        readings: DemoGym.readings(facility, from: start, to: now, zone: zone), zone: zone),
                    currentPercent: open ? DemoGym.reading(facility, at: now, zone: zone).percent : nil)
            }
        }
        let store = try HistoryFiles.openForReading(context, campus: settings.campus)
        let current = OccupancyMonitor.cached(
            settings: settings,
            stateFile: OccupancyStateFile(directories: context.directories, campus: settings.campus), now: now
        )
        return try facilities.map { facility throws(HistoryError) in
            let readings = try store?.readings(facility: facility.key, from: start, to: now) ?? []
            let status = current.report.facilities.first { $0.facility.key == facility.key }
            return HeatmapTextView.Facility(
                name: facility.name,
                heatmap: WeeklyHeatmap(facility: facility.key, readings: readings, zone: zone),
                currentPercent: status?.status == .ok ? status?.reading?.percent : nil)
        }
    }

    /// Whether any facility has a usual value to show (`trends` and `best` exit 1 when none has).
    public static func hasUsualValue(_ heatmaps: [HeatmapTextView.Facility]) -> Bool {
        heatmaps.contains { $0.heatmap.hasAnyValue }
    }

    /// Why no facility has a usual value to show, and how to get one; `nil` when one has.
    public static func noUsualValue(_ heatmaps: [HeatmapTextView.Facility]) -> String? {
        guard !hasUsualValue(heatmaps) else { return nil }
        let readings = heatmaps.map(\.heatmap.readingCount).reduce(0, +)
        let what =
            readings == 0
            ? "no history to show yet"
            : "too little history to show a usual value yet (\(readings) reading\(readings == 1 ? "" : "s")"
                + "; a half hour needs 3 readings on each of 2 days)"
        return what + ": readings are recorded by `gymcard occupancy` and `gymcard collect`; "
            + "`gymcard collect --install` samples every 5 minutes"
    }

    /// What `best` found for one facility.
    public enum Suggestion: Sendable {
        /// The quietest windows, quietest first.
        case windows([QuietWindows.Window])
        /// The history does not cover the hours ahead.
        case thinHistory(WeeklyHeatmap)
        /// The history covers them, but no window lies wholly within known opening hours (`known`: some
        /// day's hours are known).
        case outsideHours(known: Bool)
    }

    /// The quietest windows of `lengthSeconds` within the next `horizonSeconds`, inside known hours.
    public func suggestions(
        _ heatmap: WeeklyHeatmap, hours: FacilityHours, days: [LocalDay], lengthSeconds: Int,
        horizonSeconds: Int
    ) -> Suggestion {
        let find = { (count: Int, allowed: @escaping (Date, Date) -> Bool) in
            QuietWindows.find(
                in: heatmap, zone: zone, now: now, withinSeconds: Double(horizonSeconds),
                durationSeconds: Double(lengthSeconds), count: count, allowed: allowed)
        }
        let windows = find(3) { start, end in hours.isOpen(from: start, to: end) }
        if !windows.isEmpty { return .windows(windows) }
        let known = days.contains { hours[$0].isKnown }
        // Closed (or open too briefly) all the way ahead: no history could help, and a facility that is
        // closed has no readings for those hours, so saying the history is too thin would mislead.
        let end = now.addingTimeInterval(Double(horizonSeconds))
        let anyOpenWindow = hours.openings.contains { opening in
            max(opening.opens, now).addingTimeInterval(Double(lengthSeconds)) <= min(opening.closes, end)
        }
        if known, !anyOpenWindow { return .outsideHours(known: true) }
        if find(1, { _, _ in true }).isEmpty { return .thinHistory(heatmap) }
        return .outsideHours(known: known)
    }

    /// The window the status bar's usual percent is taken over, as `trends` takes it by default.
    public static let usualWeeks = 8
}

extension HistoryWindow {
    /// `best`: the opening hours over the next `horizonSeconds` (the cache, else through `fetcher()`),
    /// then what to print for `facilities`, a blank line between them, and whether any window was found.
    /// Lines longer than `columns` (the terminal's width, `nil` for no limit) wrap at spaces.
    public func best(
        _ facilities: [Facility], lengthSeconds: Int, horizonSeconds: Int, columns: Int? = nil,
        fetcher: () throws -> Fetcher
    ) async throws -> (warnings: [String], lines: [String], suggested: Bool) {
        let access = try HoursAccess(
            facilities: facilities.map(\.key), zone: zone, now: now, campus: settings.campus, context: context
        )
        let days = access.days(from: now, to: now.addingTimeInterval(Double(horizonSeconds)))
        let hours =
            isDemo
            ? HoursLoader.Outcome(hours: DemoGym.hours(facilities, days: days, zone: zone))
            : try await access.loadHandingOver(days, fetcher: fetcher)
        var lines: [String] = isDemo ? DemoGym.banner.wrapped(columns: columns) : []
        var (suggested, suggestionsStarted) = (false, false)
        for (facility, shown) in zip(facilities, try heatmaps(facilities)) {
            let suggestion = suggestions(
                shown.heatmap, hours: hours.hours[facility.key] ?? .unknown, days: days,
                lengthSeconds: lengthSeconds, horizonSeconds: horizonSeconds)
            if case .windows = suggestion { suggested = true }
            if suggestionsStarted { lines.append("") }
            suggestionsStarted = true
            lines += self.lines(
                suggestion, facility: facility, hoursKey: access.configKey(facility.key),
                lengthSeconds: lengthSeconds, horizonSeconds: horizonSeconds, columns: columns)
        }
        return (hours.warnings, lines, suggested)
    }

    /// What `best` prints for one facility: its quietest windows, or why there are none; `hoursKey` is
    /// the config file's key that gives its hours (``HoursAccess/configKey(_:)``). Fitted to `columns`
    /// (`nil`, no limit): prose wraps at spaces, and a window too wide for one line puts its usual
    /// occupancy on a second.
    public func lines(
        _ suggestion: Suggestion, facility: Facility, hoursKey: String, lengthSeconds: Int,
        horizonSeconds: Int, columns: Int? = nil
    ) -> [String] {
        let prose = unfitted(
            suggestion, facility: facility, hoursKey: hoursKey, lengthSeconds: lengthSeconds,
            horizonSeconds: horizonSeconds)
        guard let columns, case .windows = suggestion, prose.contains(where: { $0.visibleWidth > columns })
        else {
            return prose.wrapped(columns: columns, indent: 2)
        }
        // Rows are "  <when>  <usual>  <band>": the usual and band go under the when.
        return prose[0].wrapped(columns: columns, indent: 2)
            + prose.dropFirst().flatMap { row -> [String] in
                let cells = row.split(separator: "  ").map { $0.drop { $0 == " " } }
                return ["  " + (cells.first ?? ""), "    " + cells.dropFirst().joined(separator: "  ")]
                    .wrapped(columns: columns, indent: 2)
            }
    }

    private func unfitted(
        _ suggestion: Suggestion, facility: Facility, hoursKey: String, lengthSeconds: Int,
        horizonSeconds: Int
    ) -> [String] {
        let (length, horizon) = (DurationWords.text(lengthSeconds), DurationWords.text(horizonSeconds))
        switch suggestion {
        case .thinHistory(let heatmap):
            let readings = heatmap.readingCount == 1 ? "1 reading" : "\(heatmap.readingCount) readings"
            let days = heatmap.dayCount == 1 ? "1 day" : "\(heatmap.dayCount) days"
            return [
                "\(facility.name): not enough history for a suggestion: \(readings) on \(days) in the last "
                    + "\(weeks) weeks, and each half hour must be seen on at least \(WeeklyHeatmap.minimumDays) "
                    + "days; keep collecting (`gymcard collect --install` samples every 5 minutes): about 2 "
                    + "weeks covers every half hour"
            ]
        case .outsideHours(known: true):
            return [
                "\(facility.name): no suggestion: no \(length) in the next \(horizon) lies wholly within known "
                    + "opening hours (see `gymcard hours`)"
            ]
        case .outsideHours(known: false):
            return [
                "\(facility.name): no suggestion: its opening hours are unknown, and unknown is never taken for "
                    + "open (see `gymcard hours`; the config file's \(hoursKey) can give them)"
            ]
        case .windows(let windows):
            let labels = CivilLabels(zone: zone, now: now)
            let rows = windows.map { window in
                (
                    "\(labels.moment(window.start)) – \(labels.clock(window.end))",
                    "usually \(Int(window.meanPercent.rounded()))%  \(QuietWindows.band(window.meanPercent))"
                )
            }
            let width = rows.map(\.0.count).max() ?? 0
            return [
                "\(facility.name): the quietest \(length) in the next \(horizon) (from the history of the last "
                    + "\(weeks) weeks, within opening hours)"
            ] + rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
        }
    }
}

import CivilTime
import FoundationEssentials

/// The agenda as terminal lines: a heading per local day, then each event with when, title, and a
/// second line with location and hosts.
///
/// ```
/// Sat, Nov 21
///   Today at 4:00 PM      Hub Happy Hour (until 5:30 PM)
///                         Keefe 102 · Student Engagement
///   Today at 7:00 PM      CANCELLED Yoga Flow (until 8:00 PM)
/// ```
public struct EventsTextView: Sendable {
    /// Whether to use SGR escapes (bold headings and titles, dim details, red CANCELLED).
    public var colour: Bool
    /// The zone that decides days and clock times.
    public var zone: LocalTimeZone
    /// The moment "today", "now" and "tomorrow" refer to.
    public var now: Date

    /// Creates a view.
    public init(colour: Bool, zone: LocalTimeZone, now: Date) {
        self.colour = colour
        self.zone = zone
        self.now = now
    }

    private var labels: CivilLabels { CivilLabels(zone: zone, now: now) }

    /// The lines for events already chosen by ``EventAgenda/upcoming(_:now:days:)``.
    public func lines(_ events: [Event], days: Int) -> [String] {
        let groups = EventAgenda.byDay(events, now: now, zone: zone)
        guard !groups.isEmpty else {
            return ["No events in the next \(days) \(days == 1 ? "day" : "days")."]
        }
        let labelWidth = events.map { when($0).count }.max() ?? 0
        var lines: [String] = []
        for group in groups {
            lines.append(style(heading(group.day), "1"))
            for event in group.events {
                let label = when(event)
                let padding = String(repeating: " ", count: labelWidth - label.count + 2)
                var title = style(event.title, "1")
                if event.status == .cancelled { title = style("CANCELLED", "1;31") + " " + title }
                let end = until(event).map { style(" (until \($0))", "2") } ?? ""
                lines.append("  " + label + padding + title + end)
                let details = ([event.location].compactMap { $0 } + [event.hosts.joined(separator: ", ")])
                    .filter { !$0.isEmpty }
                if !details.isEmpty {
                    let indent = String(repeating: " ", count: labelWidth + 4)
                    lines.append(indent + style(details.joined(separator: " · "), "2"))
                }
            }
        }
        return lines
    }

    /// "Sat, Nov 21" (with the year when it is not this year's).
    func heading(_ day: LocalDay) -> String { labels.heading(day) }

    /// "Today at 4:00 PM", "Tomorrow at …", "Wednesday at …" within a week, else "Dec 5 at …";
    /// "Now" for an event under way; "… all day" for one that runs midnight to midnight.
    func when(_ event: Event) -> String {
        if event.start <= now { return "Now" }
        let day = dayName(zone.day(of: event.start))
        return isAllDay(event) ? "\(day), all day" : "\(day) at \(clock(event.start))"
    }

    /// The end: a clock time on the same day, else the day and time; `nil` for a one-day all-day event.
    func until(_ event: Event) -> String? {
        let startDay = zone.day(of: max(event.start, now))
        if isMidnight(event.end) {
            // An all-day (or to-midnight) event ends at the midnight after its last day.
            let lastDay = zone.day(of: event.end.addingTimeInterval(-1))
            if lastDay == startDay { return isAllDay(event) ? nil : "midnight" }
            return "the end of \(midSentence(dayName(lastDay)))"
        }
        if zone.day(of: event.end) == startDay { return clock(event.end) }
        return "\(midSentence(dayName(zone.day(of: event.end)))) at \(clock(event.end))"
    }

    private func midSentence(_ name: String) -> String {
        name == "Today" || name == "Tomorrow" ? name.lowercased() : name
    }

    private func dayName(_ day: LocalDay) -> String { labels.dayName(day) }

    /// "4:00 PM".
    func clock(_ date: Date) -> String { labels.clock(date) }

    private func isMidnight(_ date: Date) -> Bool { zone.clock(of: date) == (0, 0) }

    private func isAllDay(_ event: Event) -> Bool {
        isMidnight(event.start) && isMidnight(event.end) && event.end > event.start
    }

    private func style(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

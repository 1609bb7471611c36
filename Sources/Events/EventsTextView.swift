import CivilTime
import FoundationEssentials
import TerminalText

/// The agenda as terminal lines: a heading per local day, then each event with when, title, and a
/// second line with location and hosts. Titles, locations and hosts come from the feed: they are shown
/// terminal-safe (control characters as visible escapes).
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
    /// The terminal's width: titles and details wrap under the title column to fit; `nil`, no limit.
    public var columns: Int?

    /// Creates a view.
    public init(colour: Bool, zone: LocalTimeZone, now: Date, columns: Int? = nil) {
        self.colour = colour
        self.zone = zone
        self.now = now
        self.columns = columns
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
            // Below 20 columns for the text beside the label, the text goes under it instead (a phone in
            // portrait); narrower still, wrapping would make a ribbon of single words: it runs on.
            let stacked = columns.map { $0 - labelWidth - 4 < 20 } ?? false
            let indent = String(repeating: " ", count: stacked ? 4 : labelWidth + 4)
            let width = columns.map { $0 - indent.count }.flatMap { $0 >= 20 ? $0 : nil }
            for event in group.events {
                let label = when(event)
                if stacked { lines.append("  " + label) }
                let padding =
                    stacked ? "" : String(repeating: " ", count: labelWidth - label.count + 2)
                var title: [Words] = []
                if event.status == .cancelled { title.append(Words("CANCELLED", code: "1;31")) }
                title.append(Words(event.title.terminalSafe, code: "1"))
                if let end = until(event) { title.append(Words("(until \(end))", code: "2")) }
                for (index, line) in wrap(title, width: width).enumerated() {
                    lines.append((index == 0 && !stacked ? "  " + label + padding : indent) + line)
                }
                let details = ([event.location].compactMap { $0 } + [event.hosts.joined(separator: ", ")])
                    .filter { !$0.isEmpty }
                if !details.isEmpty {
                    let text = details.joined(separator: " · ").terminalSafe
                    for line in wrap([Words(text, code: "2")], width: width) {
                        lines.append(indent + line)
                    }
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

    /// Text in one style, to be wrapped word by word.
    struct Words {
        var words: [Substring]
        var code: String

        init(_ text: String, code: String) {
            words = text.split(separator: " ", omittingEmptySubsequences: true)
            self.code = code
        }
    }

    /// Lines of at most `width` characters (a word longer than the width is cut), each word in its
    /// style; runs of one style share one escape sequence.
    func wrap(_ parts: [Words], width: Int?) -> [String] {
        var lines: [[(text: Substring, code: String)]] = [[]]
        var used = 0
        for part in parts {
            for word in part.words {
                var rest = word
                while !rest.isEmpty {
                    let space = lines[lines.count - 1].isEmpty ? 0 : 1
                    if let width, used + space + rest.count > width {
                        if used > 0 {
                            lines.append([])
                            used = 0
                            continue
                        }
                        let piece = rest.prefix(width)
                        lines[lines.count - 1].append((piece, part.code))
                        rest = rest.dropFirst(width)
                        lines.append([])
                        continue
                    }
                    lines[lines.count - 1].append((rest, part.code))
                    used += space + rest.count
                    rest = ""
                }
            }
        }
        return lines.filter { !$0.isEmpty }.map { words in
            var text = ""
            var index = 0
            while index < words.count {
                var end = index
                while end + 1 < words.count, words[end + 1].code == words[index].code { end += 1 }
                let run = words[index...end].map { String($0.text) }.joined(separator: " ")
                text += (index == 0 ? "" : " ") + style(run, words[index].code)
                index = end + 1
            }
            return text
        }
    }
}

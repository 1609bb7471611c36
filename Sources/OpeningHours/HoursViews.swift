import CivilTime
import FoundationEssentials
import JSONOutput
import TerminalText
import TextSearch

/// A facility as the hours views show it.
public struct HoursEntry: Sendable {
    /// Its key (`mccomas`).
    public var key: String
    /// Its name (`McComas Hall`).
    public var name: String
    /// Its hours over the days loaded.
    public var hours: FacilityHours
    /// Where they come from: `service` (the RecSports hours service), `config`, or `nil` (no source).
    public var source: String?
    /// The config file's key that gives its hours (`campuses.loc.hours.gym` for an added campus).
    public var configKey: String

    /// Creates an entry; `configKey` defaults to Virginia Tech's `hours.facilities.<key>`.
    public init(key: String, name: String, hours: FacilityHours, source: String?, configKey: String? = nil) {
        self.key = key
        self.name = name
        self.hours = hours
        self.source = source
        self.configKey = configKey ?? "hours.facilities.\(key)"
    }
}

/// `gymcard hours` as text: each facility's state now, then a line per day, today marked. Names, notes
/// and labels come from the hours service or the config file: they are shown terminal-safe.
///
/// ```
/// McComas Hall · open, closes in 25 min
///   Mon, Nov 23  6:00 AM – 11:00 PM  ◂ today
///   Thu, Nov 26  closed (Thanksgiving)
/// ```
public struct HoursTextView: Sendable {
    /// The facilities' zone.
    public var zone: LocalTimeZone
    /// Now.
    public var now: Date
    /// Whether to write colour and bold.
    public var colour: Bool
    /// The terminal's width: longer lines wrap at spaces, the hours under the hours; `nil`, no limit.
    public var columns: Int?

    /// Creates a view.
    public init(zone: LocalTimeZone, now: Date, colour: Bool, columns: Int? = nil) {
        self.zone = zone
        self.now = now
        self.colour = colour
        self.columns = columns
    }

    /// The lines for `entries` over `days`.
    public func lines(_ entries: [HoursEntry], days: [LocalDay]) -> [String] {
        let labels = CivilLabels(zone: zone, now: now)
        let today = zone.day(of: now)
        // Headings differ in width ("Mon, Nov 30", "Tue, Dec 1"): padded so the hours line up.
        let headingWidth = days.map { labels.heading($0).count }.max() ?? 0
        var lines: [String] = []
        for entry in entries {
            if !lines.isEmpty { lines.append("") }
            let state = entry.hours.state(at: now, zone: zone)
            var summary = OpeningWords.summary(state, zone: zone, now: now)
            if entry.source == nil {
                summary += " (no source: give them in the config file, \(entry.configKey))"
            }
            let name = paint(entry.name.terminalSafe, "1")
            // Too wide, the name and what the facility is doing now go on lines of their own.
            lines +=
                (name + " · " + summary).visibleWidth <= columns ?? .max
                ? [name + " · " + summary] : [name] + ("  " + summary).wrapped(columns: columns, indent: 2)
            guard entry.source != nil else { continue }
            for day in days {
                let text: String
                switch entry.hours[day] {
                case .unknown: text = paint("unknown", "2")
                case .known(let intervals, let note) where intervals.isEmpty:
                    text = paint(Self.closed(note: note), "2")
                case .known(let intervals, _):
                    text = intervals.map { interval in
                        let closingDay = zone.day(of: interval.closes)
                        let closes =
                            zone.start(of: closingDay) == interval.closes && closingDay == day.adding(days: 1)
                            ? "midnight"
                            : closingDay == day
                                ? labels.clock(interval.closes)
                                : labels.clock(interval.closes) + " (next day)"
                        let label = interval.label.flatMap { $0 == "Regular Hours" ? nil : $0 }
                        return "\(labels.clock(interval.opens)) – \(closes)"
                            + (label.map { " (\($0.terminalSafe))" } ?? "")
                    }.joined(separator: ", ")
                }
                let heading = labels.heading(day)
                let padding = String(repeating: " ", count: max(0, headingWidth - heading.count))
                let line = "  " + (day == today ? paint(heading, "1") : heading) + padding + "  " + text
                // On a narrow terminal today's marker loses its word before the hours wrap.
                let marked = line + "  ◂ today"
                let fitting =
                    day != today ? line : marked.visibleWidth <= columns ?? .max ? marked : line + "  ◂"
                lines += fitting.wrapped(columns: columns, indent: headingWidth + 4)
            }
        }
        return lines
    }

    /// `closed`, or `closed (Thanksgiving)` from a note such as "Thanksgiving - Closed" (the word
    /// "closed" and the separators around it taken out, so that it is not said twice).
    static func closed(note: String?) -> String {
        guard var rest = note?.trimmed.terminalSafe, !rest.isEmpty else { return "closed" }
        if let range = rest.range(ignoringCaseOf: "closed") {
            rest.removeSubrange(range)
        }
        let separators = Set(" -–—:·,()".unicodeScalars)
        let kept = String(
            String.UnicodeScalarView(
                rest.unicodeScalars.drop { separators.contains($0) }.reversed().drop {
                    separators.contains($0)
                }.reversed()))
        return kept.isEmpty ? "closed" : "closed (\(kept))"
    }

    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// `gymcard hours --json`: `{"timeZone", "now", "facilities": [{"key", "name", "source", "open",
/// "opensAt", "closesAt", "days": [{"date", "known", "closed", "note", "intervals": [{"opens", "closes",
/// "label"}]}]}]}`, times in ISO 8601 UTC, `open` true, false or null (unknown).
public enum HoursJSON {
    struct Document: Encodable {
        var timeZone: String
        var now: String
        var facilities: [Facility]
    }

    struct Facility: Encodable {
        var key: String
        var name: String
        @ExplicitNull var source: String?
        @ExplicitNull var open: Bool?
        @ExplicitNull var opensAt: String?
        @ExplicitNull var closesAt: String?
        var days: [Day]
    }

    struct Day: Encodable {
        var date: String
        var known: Bool
        @ExplicitNull var closed: Bool?
        @ExplicitNull var note: String?
        var intervals: [Interval]
    }

    struct Interval: Encodable {
        var opens: String
        var closes: String
        @ExplicitNull var label: String?
    }

    /// The document for `entries` over `days`.
    public static func document(
        _ entries: [HoursEntry], days: [LocalDay], timeZone: String, zone: LocalTimeZone, now: Date
    ) -> String {
        let document = Document(
            timeZone: timeZone, now: now.formatted(.iso8601),
            facilities: entries.map { entry in
                let state = entry.hours.state(at: now, zone: zone)
                return Facility(
                    key: entry.key, name: entry.name, source: entry.source, open: state.isOpen,
                    opensAt: state.opensAt?.formatted(.iso8601),
                    closesAt: state.closesAt?.formatted(.iso8601),
                    days: days.map { day in
                        let hours = entry.hours[day]
                        let note: String? = if case .known(_, let note) = hours { note } else { nil }
                        return Day(
                            date: RecSportsHoursResponse.isoDate(day), known: hours.isKnown,
                            closed: hours.isKnown ? hours.intervals.isEmpty : nil, note: note,
                            intervals: hours.intervals.map {
                                Interval(
                                    opens: $0.opens.formatted(.iso8601),
                                    closes: $0.closes.formatted(.iso8601),
                                    label: $0.label)
                            })
                    })
            })
        return JSONText.line(document)
    }
}

import Events
import Foundation

/// Reads the VEVENTs of an RFC 5545 calendar into the same model as the RSS feed.
///
/// Lines are unfolded (§3.1), parameters may be quoted, TEXT values unescaped (§3.3.11). DTSTART and
/// DTEND may be UTC (`…Z`), carry a `TZID` (an IANA name, or a path ending in one, as Mozilla writes
/// them), be floating (local time) or be dates (`VALUE=DATE`, all day); a missing DTEND comes from
/// DURATION, else the end of the start's day for a date and the start itself for a time (§3.6.1).
/// `END:VCALENDAR` is required as proof that the whole calendar arrived. A daily or weekly `RRULE`
/// (with `INTERVAL`, `COUNT`, `UNTIL`, `BYDAY`) and its `EXDATE`s are read into the event's
/// ``EventRecurrence``, which the agenda expands inside its window; an occurrence the calendar gives as
/// an event of its own (`RECURRENCE-ID`) replaces the rule's. Other rules are not read: such an event
/// shows its first occurrence.
public enum ICalendarReader {
    /// The calendar's events; ones without a usable start are skipped and counted.
    public static func parse(_ text: String, localZone: TimeZone = .current) throws(FeedProblem) -> ParsedFeed
    {
        let lines = unfold(text)
        guard lines.first(where: { !$0.isEmpty })?.uppercased() == "BEGIN:VCALENDAR" else {
            throw FeedProblem("it is not an iCalendar file")
        }
        guard lines.contains(where: { $0.uppercased() == "END:VCALENDAR" }) else {
            throw FeedProblem("the calendar is cut short (no END:VCALENDAR)")
        }
        var events: [Event] = []
        var skipped = 0
        var seen = Set<String>()
        var properties: [ContentLine]?
        var nesting = 0
        var replaced: [String: [Date]] = [:]  // by UID: the starts of occurrences given on their own
        for line in lines where !line.isEmpty {
            guard let content = ContentLine(line) else { continue }
            let value = content.value.uppercased()
            if content.name == "BEGIN", value == "VEVENT" {
                properties = []
                nesting = 0
            } else if content.name == "END", value == "VEVENT", let found = properties {
                properties = nil
                guard let event = event(from: found, localZone: localZone) else {
                    skipped += 1
                    continue
                }
                if seen.insert(event.id).inserted { events.append(event) }
                if let uid = found.first(where: { $0.name == "UID" })?.value,
                    let original = found.first(where: { $0.name == "RECURRENCE-ID" }),
                    let moment = moment(original, localZone: localZone)
                {
                    replaced[uid, default: []].append(moment.date)
                }
            } else if properties != nil {
                // Components inside an event (VALARM) have properties of their own.
                if content.name == "BEGIN" {
                    nesting += 1
                } else if content.name == "END" {
                    nesting -= 1
                } else if nesting == 0 {
                    properties?.append(content)
                }
            }
        }
        for index in events.indices where events[index].recurrence != nil {
            let id = events[index].id
            events[index].recurrence?.exceptions += replaced[id] ?? []
        }
        return ParsedFeed(events: events, skipped: skipped)
    }

    /// Physical lines joined where a line break is followed by a space or tab.
    static func unfold(_ text: String) -> [String] {
        var lines: [String] = []
        for raw in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        {
            var line = Substring(raw)
            if line.last == "\r" { line = line.dropLast() }
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// `NAME;PARAM=VALUE;PARAM="quoted:value":value`.
    struct ContentLine {
        var name: String
        var parameters: [String: String]
        var value: String

        init?(_ line: String) {
            var inQuotes = false
            var separators: [String.Index] = []
            var colon: String.Index?
            for index in line.indices {
                let character = line[index]
                if character == "\"" { inQuotes.toggle() }
                if inQuotes { continue }
                if character == ";" { separators.append(index) }
                if character == ":" {
                    colon = index
                    break
                }
            }
            guard let colon else { return nil }
            let head = line[..<colon]
            let bounds = [head.startIndex] + separators.map { line.index(after: $0) }
            let ends = separators + [colon]
            let pieces = zip(bounds, ends).map { line[$0..<$1] }
            name = pieces[0].uppercased()
            parameters = [:]
            for piece in pieces.dropFirst() {
                let pair = piece.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                var parameterValue = String(pair[1])
                if parameterValue.hasPrefix("\""), parameterValue.hasSuffix("\""), parameterValue.count >= 2 {
                    parameterValue = String(parameterValue.dropFirst().dropLast())
                }
                parameters[pair[0].uppercased()] = parameterValue
            }
            value = String(line[line.index(after: colon)...])
        }
    }

    private static func event(from lines: [ContentLine], localZone: TimeZone) -> Event? {
        func first(_ name: String) -> ContentLine? { lines.first { $0.name == name } }
        func text(_ name: String) -> String? {
            first(name).map { unescape($0.value).trimmingCharacters(in: .whitespacesAndNewlines) }
                .flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let startLine = first("DTSTART"), let start = moment(startLine, localZone: localZone) else {
            return nil
        }
        let end: Date
        if let endLine = first("DTEND") {
            guard let value = moment(endLine, localZone: localZone) else { return nil }
            end = value.date
        } else if let duration = first("DURATION").flatMap({ seconds(ofDuration: $0.value) }) {
            end = start.date.addingTimeInterval(duration)
        } else {
            end = start.isDay ? start.date.addingTimeInterval(86_400) : start.date
        }
        guard end >= start.date else { return nil }
        let status: Event.Status = text("STATUS")?.uppercased() == "CANCELLED" ? .cancelled : .confirmed
        var id = text("UID") ?? "\(text("SUMMARY") ?? "")@\(start.date.timeIntervalSince1970)"
        if let recurrence = first("RECURRENCE-ID") { id += "/" + recurrence.value }
        let categories = lines.filter { $0.name == "CATEGORIES" }.flatMap { splitList($0.value) }
        let hosts =
            lines.filter { $0.name == "CONTACT" }.map { unescape($0.value) }
            + lines.filter { $0.name == "ORGANIZER" }.compactMap { $0.parameters["CN"] }
        return Event(
            id: id, title: Event.title(text("SUMMARY") ?? "(untitled)", status: status), start: start.date,
            end: end, location: text("LOCATION"), hosts: hosts.filter { !$0.isEmpty },
            categories: categories.filter { !$0.isEmpty }, link: text("URL"), status: status,
            description: text("DESCRIPTION"),
            recurrence: first("RRULE").flatMap { rule in
                guard first("RECURRENCE-ID") == nil else { return nil }
                let exceptions = lines.filter { $0.name == "EXDATE" }.flatMap { line in
                    line.value.split(separator: ",").compactMap { value in
                        var single = line
                        single.value = String(value)
                        return moment(single, localZone: localZone)?.date
                    }
                }
                return recurrence(rule.value, start: startLine, localZone: localZone, exceptions: exceptions)
            })
    }

    /// A DATE-TIME or DATE value as a moment; `isDay` for a date.
    static func moment(_ line: ContentLine, localZone: TimeZone) -> (date: Date, isDay: Bool)? {
        let value = line.value.trimmingCharacters(in: .whitespaces)
        let digits = value.filter(\.isNumber)
        let isDay =
            line.parameters["VALUE"]?.uppercased() == "DATE" || (digits.count == 8 && !value.contains("T"))
        guard digits.count == (isDay ? 8 : 14) else { return nil }
        func number(_ offset: Int, _ length: Int) -> Int? {
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return Int(digits[start..<digits.index(start, offsetBy: length)])
        }
        var components = DateComponents()
        components.year = number(0, 4)
        components.month = number(4, 2)
        components.day = number(6, 2)
        components.hour = isDay ? 0 : number(8, 2)
        components.minute = isDay ? 0 : number(10, 2)
        components.second = isDay ? 0 : number(12, 2)
        let zone: TimeZone
        if !isDay, value.uppercased().hasSuffix("Z") {
            zone = TimeZone(identifier: "UTC") ?? localZone
        } else if let name = line.parameters["TZID"] {
            guard let named = timeZone(named: name) else { return nil }
            zone = named
        } else {
            zone = localZone
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: components) else { return nil }
        return (date, isDay)
    }

    /// An IANA zone, or the IANA name a longer TZID ends in (`/mozilla.org/20050126_1/America/New_York`).
    static func timeZone(named name: String) -> TimeZone? {
        if let zone = TimeZone(identifier: name) { return zone }
        let parts = name.split(separator: "/")
        for count in [3, 2] where parts.count > count {
            if let zone = TimeZone(identifier: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        return nil
    }

    /// `PT1H30M`, `P1D`, `P2W` in seconds (§3.3.6); nil for anything else.
    static func seconds(ofDuration text: String) -> Double? {
        var rest = Substring(text.uppercased())
        var sign = 1.0
        if rest.first == "-" || rest.first == "+" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var number = ""
        for character in rest {
            if character.isNumber {
                number.append(character)
                continue
            }
            if character == "T" { continue }
            guard let value = Double(number) else { return nil }
            switch character {
            case "W": total += value * 604_800
            case "D": total += value * 86_400
            case "H": total += value * 3600
            case "M": total += value * 60
            case "S": total += value
            default: return nil
            }
            number = ""
        }
        return number.isEmpty ? sign * total : nil
    }

    /// A TEXT value with `\\`, `\;`, `\,` and `\n` undone.
    static func unescape(_ value: String) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A comma-separated TEXT list, commas escaped with `\,` kept inside items.
    static func splitList(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items.map { unescape($0).trimmingCharacters(in: .whitespaces) }
    }
}

import CivilTime
import FoundationEssentials

/// Writes events as an RFC 5545 calendar that calendar programs import.
///
/// Each event becomes a VEVENT with its identity as UID, DTSTART/DTEND in UTC, SUMMARY (a cancelled
/// event's ends in " (Cancelled)", as the feed's titles do, for programs that ignore STATUS), LOCATION,
/// URL, DESCRIPTION, CATEGORIES, one CONTACT per host and STATUS. Text values are escaped (§3.3.11) and
/// lines folded at 75 octets without splitting a UTF-8 character (§3.1); lines end in CRLF.
public enum ICalendarWriter {
    /// The calendar's text.
    public static func calendar(_ events: [Event], name: String, generatedAt: Date) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//gymcard//gymcard events//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + escape(name),
        ]
        let stamp = utcStamp(generatedAt)
        for event in events {
            lines += ["BEGIN:VEVENT", "UID:" + escape(event.id), "DTSTAMP:" + stamp]
            lines += ["DTSTART:" + utcStamp(event.start), "DTEND:" + utcStamp(event.end)]
            let title = event.status == .cancelled ? event.title + " (Cancelled)" : event.title
            lines.append("SUMMARY:" + escape(title))
            if let location = event.location { lines.append("LOCATION:" + escape(location)) }
            if let link = event.link { lines.append("URL:" + link) }
            if let description = event.description { lines.append("DESCRIPTION:" + escape(description)) }
            if !event.categories.isEmpty {
                lines.append("CATEGORIES:" + event.categories.map(escape).joined(separator: ","))
            }
            lines += event.hosts.map { "CONTACT:" + escape($0) }
            lines.append("STATUS:" + (event.status == .cancelled ? "CANCELLED" : "CONFIRMED"))
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// A TEXT value with backslash, semicolon, comma and line breaks escaped, and the control characters
    /// that RFC 5545 §3.3.11 does not allow in TEXT (every CONTROL but HTAB) left out: a feed's title with
    /// an escape sequence would otherwise reach a terminal through `events --ics -`, and make the file
    /// invalid.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n", "\r\n", "\r": escaped += "\\n"
            case "\t": escaped.append(character)
            default:
                let isControl = character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
                if !isControl { escaped.append(character) }
            }
        }
        return escaped
    }

    /// A content line split into lines of at most 75 octets, each continuation starting with a space.
    static func fold(_ line: String) -> String {
        var result = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.unicodeScalars.append(scalar)
            octets += size
        }
        return result
    }

    /// `20241018T200000Z`.
    static func utcStamp(_ date: Date) -> String {
        let zone = LocalTimeZone.fixed(hours: 0)
        let (year, month, day) = zone.day(of: date).date
        let (hour, minute) = zone.clock(of: date)
        let second = Int(date.timeIntervalSince1970.rounded(.down)) % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)\(two(month))\(two(day))T\(two(hour))\(two(minute))\(two((second + 60) % 60))Z"
    }
}

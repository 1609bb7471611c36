import Events
import FetchingCurl
import Foundation
import FoundationXML
import Markup
import TextSearch

/// Parses a Campus Labs Engage `events.rss` feed (ARCHITECTURE §8) with FoundationXML.
///
/// Text is collected raw across every character and CDATA chunk of an element and trimmed only at its
/// end, so entities and `&` in CDATA keep their spaces. FoundationXML reports each `xmlns="events"` as a
/// non-fatal namespace error (code 100) while parsing goes on; only a parse that stops is a failure.
public enum EngageFeedParser {
    /// The feed's events; items without a start or end are skipped and counted.
    public static func parse(_ data: Data) throws(FeedProblem) -> ParsedFeed {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        // FoundationXML on Linux can report success for a document cut short: the closing </rss> is
        // the proof that the whole feed arrived.
        _ = parser.parse()
        guard delegate.sawRSS else {
            throw FeedProblem("it is neither RSS nor iCalendar")
        }
        if !delegate.finishedDocument {
            let line = parser.lineNumber
            throw FeedProblem("it is cut short or malformed (line \(line))")
        }
        var seen = Set<String>()
        let unique = delegate.events.filter { seen.insert($0.id).inserted }
        return ParsedFeed(events: unique, skipped: delegate.skipped)
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var events: [Event] = []
        var skipped = 0
        var sawRSS = false
        var finishedDocument = false
        private var item: [String: [String]]?
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if name == "rss" { sawRSS = true }
            if name == "item" { item = [:] }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            text += String(decoding: block, as: UTF8.self)
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
        ) {
            if name == "rss" { finishedDocument = true }
            guard var fields = item else { return }
            if name == "item" {
                item = nil
                if let event = Self.event(from: fields) { events.append(event) } else { skipped += 1 }
                return
            }
            fields[name, default: []].append(text.trimmed)
            item = fields
            text = ""
        }

        private static func event(from fields: [String: [String]]) -> Event? {
            guard let start = fields["start"]?.first.flatMap(InternetDate.parse),
                let end = fields["end"]?.first.flatMap(InternetDate.parse)
            else { return nil }
            let link = fields["link"]?.first ?? fields["guid"]?.first
            let id =
                fields["guid"]?.first ?? link
                ?? "\(fields["title"]?.first ?? "")@\(start.timeIntervalSince1970)"
            let status: Event.Status =
                fields["status"]?.first?.lowercased() == "cancelled" ? .cancelled : .confirmed
            let description = fields["description"]?.first.map {
                HTMLText.plainText(fromHTML: ownText(of: $0))
            }
            return Event(
                id: id, title: Event.title(fields["title"]?.first ?? "(untitled)", status: status),
                start: start, end: end,
                location: fields["location"]?.first.flatMap { $0.isEmpty ? nil : $0 },
                hosts: (fields["host"] ?? []).filter { !$0.isEmpty },
                categories: (fields["category"] ?? []).filter { !$0.isEmpty }, link: link, status: status,
                description: description.flatMap { $0.isEmpty ? nil : $0 })
        }

        /// The event's own description inside Engage's h-event markup (`div.p-description`), without the
        /// title and the "From … to … at …" block the feed repeats around it; the whole HTML otherwise.
        static func ownText(of html: String) -> String {
            guard
                let opening = HTMLTags.find("div", in: html).first(where: {
                    ($0.attributes["class"] ?? "").split(separator: " ").contains("p-description")
                })
            else { return html }
            var depth = 1
            var position = opening.end
            while let close = html.range(ignoringCaseOf: "</div", from: position) {
                let nested = html.range(ignoringCaseOf: "<div", from: position)
                if let nested, nested.lowerBound < close.lowerBound {
                    depth += 1
                    position = nested.upperBound
                    continue
                }
                depth -= 1
                if depth == 0 { return String(html[opening.end..<close.lowerBound]) }
                position = close.upperBound
            }
            return html
        }
    }
}

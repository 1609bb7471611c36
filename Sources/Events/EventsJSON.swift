import FoundationEssentials
import JSONOutput

/// `events --json`: one array, the schema in ARCHITECTURE §2 plus `description`, times ISO 8601 in UTC.
public enum EventsJSON {
    struct Entry: Encodable {
        var title: String
        var start: String
        var end: String
        @ExplicitNull var location: String?
        var hosts: [String]
        var categories: [String]
        @ExplicitNull var link: String?
        var status: Event.Status
        @ExplicitNull var description: String?
    }

    /// The events as one line of JSON.
    public static func document(_ events: [Event]) -> String {
        let entries = events.map { event in
            Entry(
                title: event.title, start: event.start.formatted(.iso8601),
                end: event.end.formatted(.iso8601),
                location: event.location, hosts: event.hosts, categories: event.categories, link: event.link,
                status: event.status, description: event.description)
        }
        return JSONText.line(entries, fallback: "[]")
    }
}

import FoundationEssentials

/// `events --json`: one array, the schema in DESIGN §2 plus `description`, times ISO 8601 in UTC.
public enum EventsJSON {
    struct Entry: Encodable {
        var title: String
        var start: String
        var end: String
        var location: String?
        var hosts: [String]
        var categories: [String]
        var link: String?
        var status: Event.Status
        var description: String?

        enum CodingKeys: String, CodingKey {
            case title, start, end, location, hosts, categories, link, status, description
        }

        // Explicit nulls: a consumer reads `location: null`, not a missing key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(start, forKey: .start)
            try container.encode(end, forKey: .end)
            try container.encode(location, forKey: .location)
            try container.encode(hosts, forKey: .hosts)
            try container.encode(categories, forKey: .categories)
            try container.encode(link, forKey: .link)
            try container.encode(status, forKey: .status)
            try container.encode(description, forKey: .description)
        }
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, arrays of strings and optionals always encode.
        return String(decoding: (try? encoder.encode(entries)) ?? Data("[]".utf8), as: UTF8.self)
    }
}

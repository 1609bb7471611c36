import FoundationEssentials
import TextSearch

/// Which events to list: those whose text holds every word searched for, in one of the categories asked
/// for, at a matching location. Every comparison ignores case; an empty filter matches every event.
public struct EventFilter: Sendable, Equatable {
    /// Words that must each appear in the title, description, location, hosts or categories.
    public var words: [String]
    /// The event must have a category containing one of these.
    public var categories: [String]
    /// The location must contain one of these.
    public var locations: [String]

    /// A filter: `search` is split into words; `categories` and `locations` are alternatives.
    public init(search: String? = nil, categories: [String] = [], locations: [String] = []) {
        words = (search ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        self.categories = categories.map(\.trimmed).filter { !$0.isEmpty }
        self.locations = locations.map(\.trimmed).filter { !$0.isEmpty }
    }

    /// Whether `event` is one to list.
    public func matches(_ event: Event) -> Bool {
        let text =
            ([event.title, event.description ?? "", event.location ?? ""] + event.hosts + event.categories)
            .joined(separator: "\n")
        guard words.allSatisfy({ text.range(ignoringCaseOf: $0) != nil }) else { return false }
        if !categories.isEmpty,
            !event.categories.contains(where: { category in
                categories.contains { category.range(ignoringCaseOf: $0) != nil }
            })
        {
            return false
        }
        if !locations.isEmpty {
            guard let location = event.location,
                locations.contains(where: { location.range(ignoringCaseOf: $0) != nil })
            else { return false }
        }
        return true
    }
}

import FoundationEssentials
import TextSearch

/// One upcoming RecSports event, from an Engage RSS feed or an iCalendar source.
public struct Event: Sendable, Equatable, Codable {
    /// Whether it takes place.
    public enum Status: String, Sendable, Codable {
        /// Going ahead.
        case confirmed
        /// Called off.
        case cancelled
    }

    /// The identity: the feed's `guid` (or the calendar's UID). Duplicates share it.
    public var id: String
    /// The title, with `&` and other characters intact.
    public var title: String
    /// When it starts.
    public var start: Date
    /// When it ends.
    public var end: Date
    /// Where, when the feed says.
    public var location: String?
    /// Organising groups.
    public var hosts: [String]
    /// Categories.
    public var categories: [String]
    /// The event's page.
    public var link: String?
    /// Confirmed or cancelled.
    public var status: Status
    /// The description as readable text (paragraphs kept), when there is one.
    public var description: String?
    /// How an iCalendar event repeats, when it does in a way gymcard expands; `nil` for a single event
    /// (and for each occurrence once expanded).
    public var recurrence: EventRecurrence?

    /// Creates an event.
    public init(
        id: String, title: String, start: Date, end: Date, location: String?, hosts: [String],
        categories: [String],
        link: String?, status: Status, description: String?, recurrence: EventRecurrence? = nil
    ) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
        self.location = location
        self.hosts = hosts
        self.categories = categories
        self.link = link
        self.status = status
        self.description = description
        self.recurrence = recurrence
    }
}

/// What a feed held: its events (duplicates dropped) and how many items were skipped for missing dates.
public struct ParsedFeed: Sendable, Equatable {
    /// Events in feed order, one per identity.
    public var events: [Event]
    /// Items without a usable start or end.
    public var skipped: Int

    /// Creates a result.
    public init(events: [Event], skipped: Int) {
        self.events = events
        self.skipped = skipped
    }
}

/// Why a body is not an events feed (RSS or iCalendar).
public struct FeedProblem: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// What is wrong, worded to follow "the events feed …: ".
    public var description: String
    /// Whether the address answers something other than a feed (a web page): the feed is unavailable
    /// there, rather than damaged.
    public var meansUnavailable: Bool

    /// Creates a problem.
    public init(_ description: String, meansUnavailable: Bool = false) {
        self.description = description
        self.meansUnavailable = meansUnavailable
    }

    /// The same text for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension Event {
    /// The title without the " (Cancelled)" Engage appends to cancelled events: the status says it.
    public static func title(_ title: String, status: Status) -> String {
        guard status == .cancelled else { return title }
        let suffix = "(cancelled)"
        guard title.lowercased().hasSuffix(suffix) else { return title }
        let kept = title.dropLast(suffix.count).trimmed
        return kept.isEmpty ? title : kept
    }
}

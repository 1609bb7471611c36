import Events
import Fetching
import Foundation

/// Decides what a feed's body is and reads it: iCalendar when the server says `text/calendar` or the
/// body starts with `BEGIN:VCALENDAR`, otherwise Engage RSS.
public enum EventsFeedReading {
    /// The events in a fetched feed.
    public static func read(_ response: HTTPResponse) throws(FeedProblem) -> ParsedFeed {
        try read(response.body, mediaType: response.mediaType)
    }

    /// The events in a feed's bytes.
    public static func read(_ body: Data, mediaType: String?) throws(FeedProblem) -> ParsedFeed {
        let start = String(decoding: body.prefix(512), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\u{FEFF}"])).lowercased()
        if mediaType == "text/calendar" || start.hasPrefix("begin:vcalendar") {
            return try ICalendarReader.parse(String(decoding: body, as: UTF8.self))
        }
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") {
            throw FeedProblem(
                "it answers a web page, not a feed; the feed may have moved", meansUnavailable: true)
        }
        return try EngageFeedParser.parse(body)
    }
}

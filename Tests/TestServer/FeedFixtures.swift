import Foundation

/// Small Engage feeds for the loader and the end-to-end tests.
public enum FeedFixtures {
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, d MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    /// An RFC 822 date as Engage writes it.
    public static func rfc822(_ date: Date) -> String { formatter.string(from: date) }

    /// One `<item>`, its title in CDATA, its dates around `now`.
    public static func item(
        id: Int, title: String, start: Date, hours: Double = 1, status: String = "confirmed"
    ) -> String {
        """
        <item><title><![CDATA[\(title)]]></title><guid>https://gobblerconnect.vt.edu/event/\(id)</guid>
        <link>https://gobblerconnect.vt.edu/event/\(id)</link>
        <description><![CDATA[<div class="h-event vevent"><div class="p-description description"><p>About \(id)</p></div></div>]]></description>
        <category>Fitness</category>
        <start xmlns="events">\(rfc822(start))</start><end xmlns="events">\(rfc822(start.addingTimeInterval(hours * 3600)))</end>
        <location xmlns="events">McComas Hall</location><status xmlns="events">\(status)</status>
        <host xmlns="events">RecSports</host></item>
        """
    }

    /// A whole feed around the items.
    public static func feed(_ items: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>RecSports</title><ttl>300</ttl>
        \(items.joined(separator: "\n"))
        </channel></rss>
        """
    }
}

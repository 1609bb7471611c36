import Events
import EventsFeed
import FetchingCurl
import Foundation
import TestSupport
import Testing

/// The real Engage captures in ../shared/realworld/engage-rss (absent outside this workspace).
private let realFeedFolder = GymcardProcess.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/realworld/engage-rss")

private func realFeed(_ name: String) throws -> Data {
    try Data(contentsOf: realFeedFolder.appendingPathComponent(name))
}

/// Whether both real captures the tests read are there.
private let realFeedsPresent = ["hub_2024_10_17_15.xml", "hub_2024_11_11_15.xml"].allSatisfy {
    FileManager.default.fileExists(atPath: realFeedFolder.appendingPathComponent($0).path)
}

@Suite("The Engage RSS parser")
struct EngageFeedParserTests {
    @Test(
        "every item of the real feeds parses, with the expectations that hold for each",
        .enabled(
            if: Prerequisite.runs(realFeedsPresent),
            "../shared/realworld/engage-rss is not beside the package"),
        arguments: [("hub_2024_10_17_15.xml", 116, 9), ("hub_2024_11_11_15.xml", 96, nil)])
    func realFeeds(name: String, items: Int, cancelled: Int?) throws {
        let data = try realFeed(name)
        let feed = try EngageFeedParser.parse(data)
        #expect(feed.events.count + feed.skipped == items)
        #expect(feed.skipped == 0)
        if let cancelled { #expect(feed.events.filter { $0.status == .cancelled }.count == cancelled) }
        for event in feed.events {
            #expect(!event.title.isEmpty)
            #expect(event.start <= event.end, "\(event.title)")
            #expect(!event.hosts.isEmpty && event.hosts.allSatisfy { !$0.isEmpty }, "\(event.title)")
            let link = try #require(event.link)
            #expect(link.wholeMatch(of: /https:\/\/[a-z0-9.-]+\/event\/[0-9]+/) != nil, "\(link)")
        }
        // The captures have `&` only in hosts, as CDATA; titles with `&` are in ownFeed below.
        let raw = String(decoding: data, as: UTF8.self)
        let ampersandNames = raw.matches(of: /<(?:title|host)[^>]*><!\[CDATA\[([^\]]*&[^\]]*)\]\]>/).map {
            Event.title(String($0.1).trimmingCharacters(in: .whitespaces), status: .cancelled)
        }
        #expect(!ampersandNames.isEmpty)
        let names = Set(feed.events.flatMap { [$0.title] + $0.hosts })
        for name in ampersandNames { #expect(names.contains(name), "\(name)") }
        #expect(!feed.events.contains { $0.title.lowercased().hasSuffix("(cancelled)") })
    }

    @Test(
        "feed dates read the same under any formatting locale, where a formatter in that locale fails",
        arguments: ["de_DE", "ja_JP"])
    func datesWhateverTheLocale(locale: String) throws {
        // Linux Foundation's Locale.current ignores LANG and LC_ALL (it stays en_001), so the end-to-end
        // run under de_DE/ja_JP cannot show this hazard; a formatter given the locale directly does.
        let sample = "Fri, 18 Oct 2024 20:00:00 GMT"
        let naive = DateFormatter()
        naive.locale = Locale(identifier: locale)
        naive.dateFormat = "EEE, d MMM yyyy HH:mm:ss zzz"
        #expect(naive.date(from: sample) == nil)
        #expect(InternetDate.parse(sample) == Date(timeIntervalSince1970: 1_729_281_600))
    }

    @Test("CDATA, entities split across chunks, several hosts and categories, duplicates, missing dates")
    func ownFeed() throws {
        let feed = """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>t</title>
            <item><title><![CDATA[Yoga & Pilates]]></title><guid>https://x.edu/event/1</guid><link>https://x.edu/event/1</link>
            <description><![CDATA[<p>Bring a mat &amp; water.</p><p>Second   paragraph</p>]]></description>
            <category>Fitness</category><category>Wellness</category>
            <start xmlns="events">Fri, 18 Oct 2024 20:00:00 GMT</start><end xmlns="events">Fri, 18 Oct 2024 21:00:00 GMT</end>
            <location xmlns="events">McComas Hall &amp; Pool </location><status xmlns="events">cancelled</status>
            <host xmlns="events">RecSports</host><host xmlns="events"><![CDATA[Club Sports & Co]]></host></item>
            <item><title>Tom &amp; Jerry&apos;s Run</title><guid>https://x.edu/event/2</guid>
            <start xmlns="events">Sat, 19 Oct 2024 14:00:00 GMT</start><end xmlns="events">Sat, 19 Oct 2024 15:00:00 GMT</end>
            <status xmlns="events">confirmed</status><host xmlns="events">RecSports</host></item>
            <item><title>Yoga again</title><guid>https://x.edu/event/1</guid>
            <start xmlns="events">Fri, 18 Oct 2024 20:00:00 GMT</start><end xmlns="events">Fri, 18 Oct 2024 21:00:00 GMT</end></item>
            <item><title>No dates</title><guid>https://x.edu/event/3</guid></item>
            </channel></rss>
            """
        let parsed = try EngageFeedParser.parse(Data(feed.utf8))
        #expect(parsed.skipped == 1)
        #expect(parsed.events.map(\.id) == ["https://x.edu/event/1", "https://x.edu/event/2"])
        let yoga = parsed.events[0]
        #expect(yoga.title == "Yoga & Pilates")
        #expect(yoga.status == .cancelled)
        #expect(yoga.hosts == ["RecSports", "Club Sports & Co"])
        #expect(yoga.categories == ["Fitness", "Wellness"])
        #expect(yoga.location == "McComas Hall & Pool")
        #expect(yoga.description == "Bring a mat & water.\n\nSecond paragraph")
        #expect(yoga.start.timeIntervalSince1970 == 1_729_281_600)
        #expect(parsed.events[1].title == "Tom & Jerry's Run")
    }

    @Test(
        "HTML, truncated XML and an empty body are not feeds",
        arguments: [
            "<!DOCTYPE html><html><body><h1>Page not found</h1></body></html>",
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><item><title>Cut",
            "",
        ])
    func notFeeds(body: String) {
        #expect(throws: FeedProblem.self) { try EngageFeedParser.parse(Data(body.utf8)) }
    }

    @Test("the description is the event's own text, without the title and time block Engage wraps it in")
    func engageDescription() throws {
        let html = """
            <div class="h-event vevent">
              <div class="p-name summary">Swim Clinic</div>
              <div class="p-description description"><p>Bring goggles.</p><div><p>Lanes 1&ndash;4</p></div></div>
              <div><p>From <time class="dt-start dtstart" datetime="2024-10-18T16:00:00">Friday</time></p></div>
            </div>
            """
        let feed = """
            <rss version="2.0"><channel><item><title>Swim Clinic</title><guid>https://x.edu/event/9</guid>
            <description><![CDATA[\(html)]]></description>
            <start xmlns="events">Fri, 18 Oct 2024 20:00:00 GMT</start><end xmlns="events">Fri, 18 Oct 2024 21:00:00 GMT</end>
            </item></channel></rss>
            """
        let event = try #require(try EngageFeedParser.parse(Data(feed.utf8)).events.first)
        #expect(event.description == "Bring goggles.\n\nLanes 1–4")
    }

    @Test("an empty feed is no events, not an error")
    func emptyFeed() throws {
        let parsed = try EngageFeedParser.parse(
            Data("<rss version=\"2.0\"><channel><title>t</title></channel></rss>".utf8))
        #expect(parsed.events.isEmpty && parsed.skipped == 0)
    }
}

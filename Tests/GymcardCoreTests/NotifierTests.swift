import CampusFeature
import CardFeature
import Fetching
import FetchingCurl
import Foundation
import GymcardCore
import TestServer
import TestSupport
import Testing

/// `wait --notify`'s two ways, in process: notify-send as the program runner sees it, and a push to a
/// real ntfy-style server on 127.0.0.1 named by the config file.
@Suite struct NotifierTests {
    static let fetcher = Fetcher(client: CurlClient(userAgent: "gymcard/test"), policy: FetchPolicy())

    private static func context(_ home: TemporaryDirectory, config: String?) throws -> Context {
        if let config {
            try FileManager.default.createDirectory(
                atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
            try config.write(
                toFile: home.path + "/config/gymcard/config.json", atomically: true, encoding: .utf8)
        }
        return try Context(
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
                "XDG_STATE_HOME": home.path + "/state",
                "XDG_CACHE_HOME": home.path + "/cache", "XDG_DATA_HOME": home.path + "/data",
            ], online: nil
        ) { _ in }
    }

    @Test func thePushCarriesTitlePriorityAndMessageAndTheDesktopGetsTheSame() async throws {
        let pushes = Locked<[LocalServer.Request]>([])
        let server = try await LocalServer { request in
            pushes.withLock { $0.append(request) }
            return LocalServer.Response(contentType: "application/json", #"{"id":"x"}"#)
        }
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        let topic = server.url("/gym").absoluteString
        let notifier = try Notifier(
            context: try Self.context(home, config: #"{"notify": {"ntfy": "\#(topic)", "priority": 5}}"#))
        var ran: [[String]] = []
        let warnings = await notifier.send(
            title: "McComas", message: "below 30% now", urgent: true, fetcher: Self.fetcher
        ) { arguments in
            ran.append(arguments)
            return (0, "")
        }
        #expect(warnings.isEmpty)
        #expect(ran == [["notify-send", "-a", "gymcard", "-u", "normal", "McComas", "below 30% now"]])
        let push = try #require(pushes.withLock { $0.first })
        #expect(push.method == "POST" && push.path == "/gym")
        #expect(String(decoding: push.body, as: UTF8.self) == "below 30% now")
        #expect(push.headers["title"] == "McComas" && push.headers["priority"] == "5")
        // Not the news waited for (a timeout): low urgency and priority 3.
        _ = await notifier.send(title: "t", message: "m", urgent: false, fetcher: Self.fetcher) { _ in nil }
        #expect(pushes.withLock { $0.last?.headers["priority"] } == "3")
    }

    @Test func eachWayThatFailsIsAWarningNamingIt() async throws {
        let server = try await LocalServer { _ in LocalServer.Response(status: 403, "no") }
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        let topic = server.url("/gym").absoluteString
        let notifier = try Notifier(
            context: try Self.context(home, config: #"{"notify": {"ntfy": "\#(topic)"}}"#))
        let warnings = await notifier.send(title: "t", message: "m", urgent: true, fetcher: Self.fetcher) {
            _ in
            (1, "cannot connect to the notification server\nmore")
        }
        #expect(warnings.count == 2)
        #expect(
            warnings.first
                == "the desktop notification failed (notify-send: cannot connect to the notification server)")
        #expect(warnings.last?.hasPrefix("the push to 127.0.0.1 failed: ") == true)
    }

    @Test func noSectionMeansTheDesktopOnlyAndABadPriorityIsAConfigProblem() async throws {
        let home = try TemporaryDirectory()
        let plain = try Notifier(context: try Self.context(home, config: nil))
        #expect(plain.ntfy == nil)
        let other = try TemporaryDirectory()
        #expect(throws: ConfigFileProblem.self) {
            try Notifier(
                context: try Self.context(
                    other, config: #"{"notify": {"ntfy": "https://ntfy.sh/x", "priority": 7}}"#))
        }
    }
}

import Foundation
import TestServer
import TestSupport
import Testing

/// `gymcard doctor` as a person runs it: temporary XDG folders, the built binary, a local server that
/// counts any request made to the addresses it is given.
@Suite("gymcard doctor")
struct DoctorCommandTests {
    @Test("a new user: exit 0, what to set up, the addresses in use, and no request to them")
    func newUser() async throws {
        let server = try await FeedServer(LocalServer.Response(status: 200, "{}"))
        defer { Task { await server.server.stop() } }
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(
            home: home.path,
            extra: [
                "GYMCARD_OCCUPANCY_URL": server.server.url("/occupancy").absoluteString,
                "GYMCARD_EVENTS_URL": server.server.url("/events.rss").absoluteString,
            ])
        let result = try await gymcard.run(["doctor"])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        let text = result.stdoutText
        #expect(
            text.contains("note     card: no card stored; `gymcard scan --save <photo>` or `gymcard set`"))
        #expect(text.contains("ok       libzbar: loads"))
        #expect(
            text.contains(server.server.url("/occupancy").absoluteString + " (from GYMCARD_OCCUPANCY_URL)"))
        #expect(text.contains("note     timer: no timer collects the history; `gymcard collect --install`"))
        #expect(text.contains("The network was not used"))
        #expect(text.hasSuffix("No problems found.\n"))
        #expect(server.requests.withLock { $0 } == 0)
    }

    @Test("a card others can read: exit 1, the chmod to run, and never the ID, in text or JSON")
    func readableCard() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let set = try await gymcard.run(["set", "--no-passphrase"], input: Data("9051-23456\n".utf8))
        #expect(set.status == 0, "\(set.stderr)")
        let card = home.path + "/data/gymcard/card.json"
        #expect(chmod(card, 0o644) == 0)

        let text = try await gymcard.run(["doctor"])
        #expect(text.status == 1)
        #expect(
            text.stdoutText.contains(
                "problem  card file: \(card) is mode 0644; others can read it; chmod 600 \(card)"))
        #expect(text.stdoutText.hasSuffix("1 problem found: see the lines marked problem.\n"))

        let json = try await gymcard.run(["doctor", "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        let problem = try #require(checks.first { $0["status"] as? String == "problem" })
        #expect(problem["advice"] as? String == "chmod 600 \(card)")
        #expect(checks.contains { $0["name"] as? String == "timer" && $0["advice"] is String })
        #expect(checks.contains { $0["advice"] is NSNull })

        for output in [text.stdoutText, text.stderr, json.stdoutText, json.stderr] {
            #expect(!output.contains("23456") && !output.contains("905123456"))
        }
        #expect(chmod(card, 0o600) == 0)
        #expect(try await gymcard.run(["doctor"]).status == 0)
    }
}

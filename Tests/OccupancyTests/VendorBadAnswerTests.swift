import CivilTime
import Fetching
import Foundation
import Occupancy
import Synchronization
import TestServer
import TestSupport
import Testing

/// One bad answer, and the error a person is shown for it.
struct BadAnswer: Sendable, CustomTestStringConvertible {
    var name: String
    var status: Int = 200
    var contentType: String? = "application/json"
    var body: String
    var headers: [String: String] = [:]
    var expected: @Sendable (String) -> FetchError
    var testDescription: String { name }
}

@Suite("Bad vendor answers are reported as the fetch's errors")
struct VendorBadAnswerTests {
    static let key = "aedeaf92-036d-4848-980b-7eb5526ea40c"

    static let goboard: [BadAnswer] = [
        BadAnswer(
            name: "an HTML page served as HTML", contentType: "text/html; charset=utf-8",
            body: "<html>…</html>"
        ) {
            .unexpectedContent(host: $0, detail: "text/html instead of JSON")
        },
        BadAnswer(
            name: "an HTML page served as JSON", body: "\n  <!DOCTYPE html><html><title>Error</title></html>"
        ) {
            .unexpectedContent(host: $0, detail: "an HTML page instead of JSON")
        },
        BadAnswer(name: "not JSON", body: "Service Unavailable") {
            .unexpectedContent(host: $0, detail: "something that is not JSON")
        },
        BadAnswer(name: "an empty body", body: "") {
            .unexpectedContent(host: $0, detail: "something that is not JSON")
        },
        BadAnswer(name: "an object, not a list", body: "{\"Message\":\"An error has occurred.\"}") {
            .unexpectedContent(host: $0, detail: "a JSON object instead of a list of zones")
        },
        BadAnswer(name: "null", body: "null") {
            .unexpectedContent(host: $0, detail: "null instead of a list of zones")
        },
        BadAnswer(name: "an empty list (an unknown key)", body: "[]") {
            .unexpectedContent(
                host: $0,
                detail:
                    "an empty list of zones; GoBoard does not know the campus's key, or lists nothing for it:"
                    + " check the key= in the campus's occupancy widget")
        },
        BadAnswer(name: "a list of entries without LocationId", body: "[{\"LocationName\":\"x\"},3]") {
            .unexpectedContent(host: $0, detail: "2 entries, none with the ID of a zone")
        },
        BadAnswer(
            name: "429 with Retry-After", status: 429, body: "slow down", headers: ["Retry-After": "120"]
        ) {
            .rateLimited(host: $0, retryAfterSeconds: 120)
        },
        BadAnswer(name: "500", status: 500, body: "{}") { .serverError(host: $0, status: 500) },
        BadAnswer(name: "503", status: 503, contentType: "text/html", body: "<html>down</html>") {
            .serverError(host: $0, status: 503)
        },
        BadAnswer(name: "404", status: 404, body: "{}") { .clientError(host: $0, status: 404) },
    ]

    static let waitz: [BadAnswer] = [
        BadAnswer(name: "a list where {data: …} belongs", body: "[]") {
            .unexpectedContent(
                host: $0, detail: "a JSON list without data instead of {\"data\": [locations]}")
        },
        BadAnswer(name: "data false", body: "{\"data\":false}") {
            .unexpectedContent(host: $0, detail: "true or false as data instead of {\"data\": [locations]}")
        },
        BadAnswer(name: "an empty data list (an unknown slug)", body: "{\"data\":[]}") {
            .unexpectedContent(
                host: $0,
                detail:
                    "an empty list of zones; Waitz does not know ucsd-nowhere, or lists nothing for it: check"
                    + " the campus's page, https://waitz.io/<slug>")
        },
        BadAnswer(name: "an HTML page served as HTML", contentType: "text/html", body: "<!doctype html>") {
            .unexpectedContent(host: $0, detail: "text/html instead of JSON")
        },
        BadAnswer(name: "429", status: 429, body: "") { .rateLimited(host: $0, retryAfterSeconds: nil) },
        BadAnswer(name: "502", status: 502, body: "") { .serverError(host: $0, status: 502) },
    ]

    private func check(_ answer: BadAnswer, vendor: CampusVendor, path: String) async throws {
        let server = try await LocalServer { _ in
            LocalServer.Response(
                status: answer.status, contentType: answer.contentType, headers: answer.headers, answer.body)
        }
        let source = CampusSource(vendor: vendor, base: server.url(""))
        #expect(source.requestURL.path == path)
        await #expect(throws: answer.expected("127.0.0.1")) {
            try await VendorFeed.zones(
                vendor, at: source.requestURL, fetcher: VendorFixtures.fetcher(), zone: .fixed(hours: 0))
        }
        await server.stop()
    }

    @Test("GoBoard", arguments: goboard)
    func goboardAnswer(_ answer: BadAnswer) async throws {
        try await check(
            answer, vendor: .goboard(key: Self.key), path: "/api/FacilityCount/GetCountsByAccount")
    }

    @Test("Waitz", arguments: waitz)
    func waitzAnswer(_ answer: BadAnswer) async throws {
        try await check(answer, vendor: .waitz(slug: "ucsd-nowhere"), path: "/live/ucsd-nowhere")
    }

    @Test("a 503 is tried again, as every transient failure is, and the answer after it read")
    func retried() async throws {
        let tries = Counter()
        let server = try await LocalServer { _ in
            tries.increment() == 1
                ? LocalServer.Response(status: 503, "busy")
                : LocalServer.Response.json(
                    Data("[{\"LocationId\":1,\"TotalCapacity\":10,\"LastCount\":3}]".utf8))
        }
        let source = CampusSource(vendor: .goboard(key: Self.key), base: server.url(""))
        let zones = try await VendorFeed.zones(
            source.vendor, at: source.requestURL, fetcher: VendorFixtures.fetcher(attempts: 3),
            zone: .fixed(hours: 0))
        #expect(zones.map(\.reading) == [OccupancyReading(occupancy: 3, capacity: 10)])
        #expect(tries.value == 2)
        await server.stop()
    }
}

/// A thread-safe count of calls.
final class Counter: Sendable {
    private let count = Mutex(0)
    /// Adds one; returns the new count.
    func increment() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

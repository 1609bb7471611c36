import Fetching
import FetchingCurl
import Foundation
import Synchronization
import TestServer
import Testing

/// The real libcurl client against a real server on 127.0.0.1.
@Suite("The fetcher against a local HTTP server")
struct FetcherTests {
    let client = CurlClient(userAgent: "gymcard/test")

    /// A fetcher; the generous default timeout is for answers that must succeed: while the suite's
    /// CPU-heavy tests hold both threads of a 2-core machine's pool, the in-process server can wait
    /// seconds for one. Tests about timeouts give short ones.
    func fetcher(
        timeout: Double = 300, attempts: Int = 3, backoff: Double = 0.05, maximumBytes: Int = 4_000_000
    ) -> Fetcher {
        Fetcher(
            client: client,
            policy: FetchPolicy(
                timeoutSeconds: timeout, maximumAttempts: attempts, backoffSeconds: backoff,
                maximumBodyBytes: maximumBytes))
    }

    @Test("a POST sends the form body, the content type and the User-Agent")
    func post() async throws {
        let seen = Mutex<LocalServer.Request?>(nil)
        let server = try await LocalServer { request in
            seen.withLock { $0 = request }
            return LocalServer.Response("<p>ok</p>")
        }
        defer { Task { await server.stop() } }
        let request = HTTPRequest.postForm(
            server.url("/FacilityOccupancy/GetFacilityData"),
            fields: [("facilityId", "a b&c"), ("type", "x")],
            accept: "text/html")
        let response = try await fetcher().fetch(request, expecting: .htmlPage)
        #expect(String(decoding: response.body, as: UTF8.self) == "<p>ok</p>")
        let request2 = try #require(seen.withLock { $0 })
        #expect(request2.method == "POST")
        #expect(request2.path == "/FacilityOccupancy/GetFacilityData")
        #expect(request2.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(request2.headers["user-agent"] == "gymcard/test")
        #expect(String(decoding: request2.body, as: UTF8.self) == "facilityId=a+b%26c&type=x")
        #expect(request2.formFields == ["facilityId": "a b&c", "type": "x"])
    }

    @Test("a 5xx is tried again and the later success returned")
    func serverErrorRetried() async throws {
        let count = Mutex(0)
        let server = try await LocalServer { _ in
            let attempt = count.withLock { value in
                value += 1
                return value
            }
            return attempt < 3
                ? LocalServer.Response(status: 503, "busy") : LocalServer.Response("<p>fine</p>")
        }
        defer { Task { await server.stop() } }
        let response = try await fetcher().fetch(
            .get(server.url(), accept: "text/html"), expecting: .htmlPage)
        #expect(response.status == 200)
        #expect(count.withLock { $0 } == 3)
    }

    @Test("a 5xx that persists is a server error after the bounded tries")
    func serverErrorPersists() async throws {
        let count = Mutex(0)
        let server = try await LocalServer { _ in
            count.withLock { $0 += 1 }
            return LocalServer.Response(status: 500, "oops")
        }
        defer { Task { await server.stop() } }
        await #expect(throws: FetchError.serverError(host: "127.0.0.1", status: 500)) {
            try await fetcher().fetch(.get(server.url(), accept: "text/html"), expecting: .htmlPage)
        }
        #expect(count.withLock { $0 } == 3)
    }

    @Test("429 with a short Retry-After is waited out and tried again")
    func retryAfterHonoured() async throws {
        let count = Mutex(0)
        let server = try await LocalServer { _ in
            let attempt = count.withLock { value in
                value += 1
                return value
            }
            return attempt == 1
                ? LocalServer.Response(status: 429, headers: ["Retry-After": "1"], "slow down")
                : LocalServer.Response("<p>ok</p>")
        }
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        _ = try await fetcher().fetch(.get(server.url(), accept: "text/html"), expecting: .htmlPage)
        #expect(ContinuousClock.now - started >= .milliseconds(950))
        #expect(count.withLock { $0 } == 2)
    }

    @Test("429 with a Retry-After beyond the deadline is reported at once, with the wait")
    func retryAfterTooLong() async throws {
        let server = try await LocalServer { _ in
            LocalServer.Response(status: 429, headers: ["Retry-After": "120"], "slow down")
        }
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        do {
            _ = try await fetcher(timeout: 30).fetch(
                .get(server.url(), accept: "text/html"), expecting: .htmlPage)
            Issue.record("expected a failure")
        } catch {
            #expect(error == .rateLimited(host: "127.0.0.1", retryAfterSeconds: 120))
            #expect(error.description.contains("try again in 2 min"))
        }
        // Not the 120 s wait (a bound far from both, so a machine's load cannot change the answer).
        #expect(ContinuousClock.now - started < .seconds(90))
    }

    @Test("a server that stalls past the timeout is a timeout, in about the timeout")
    func stall() async throws {
        let server = try await LocalServer.stalling(for: 600)
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        await #expect(throws: FetchError.timedOut(host: "127.0.0.1", seconds: 0.5)) {
            try await fetcher(timeout: 0.5, attempts: 1).fetch(
                .get(server.url(), accept: "text/html"), expecting: .htmlPage)
        }
        // Not the server's 600 s stall (a bound far from both, so a machine's load cannot change the answer).
        #expect(ContinuousClock.now - started < .seconds(300))
    }

    @Test("a retry cut short by the deadline still reports the timeout the person set")
    func stallReportsConfiguredTimeout() async throws {
        let server = try await LocalServer.stalling(for: 600)
        defer { Task { await server.stop() } }
        // 0.6 s per try within 1.2 s: the second try has only about 0.1 s left.
        do {
            _ = try await fetcher(timeout: 0.6, attempts: 3, backoff: 0.4).fetch(
                .get(server.url(), accept: "text/html"), expecting: .htmlPage)
            Issue.record("expected a timeout")
        } catch {
            #expect(error == .timedOut(host: "127.0.0.1", seconds: 0.6))
            #expect(error.description.contains("within 0.6 s"))
        }
    }

    @Test("a 12 MB body is refused as too large")
    func tooLarge() async throws {
        let big = Data(repeating: UInt8(ascii: "x"), count: 12_000_000)
        let server = try await LocalServer { _ in LocalServer.Response(body: big) }
        defer { Task { await server.stop() } }
        await #expect(throws: FetchError.tooLarge(host: "127.0.0.1", limitBytes: 4_000_000)) {
            try await fetcher().fetch(.get(server.url(), accept: "text/html"), expecting: .htmlPage)
        }
    }

    @Test("connection refused")
    func refused() async throws {
        let closed = try LocalServer.ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        await #expect(throws: FetchError.refused(host: "127.0.0.1")) {
            try await fetcher(attempts: 1).fetch(.get(url, accept: "text/html"), expecting: .htmlPage)
        }
    }

    @Test(
        "statuses map to errors a person can act on",
        arguments: [
            (401, FetchError.signInRequired(host: "127.0.0.1")), (403, .signInRequired(host: "127.0.0.1")),
            (404, .clientError(host: "127.0.0.1", status: 404)),
            (410, .clientError(host: "127.0.0.1", status: 410)),
        ])
    func statuses(status: Int, expected: FetchError) async throws {
        let server = try await LocalServer { _ in LocalServer.Response(status: status, "no") }
        defer { Task { await server.stop() } }
        await #expect(throws: expected) {
            try await fetcher().fetch(.get(server.url(), accept: "text/html"), expecting: .htmlPage)
        }
    }

    @Test("a redirect to a sign-in page is a sign-in, not content")
    func signInRedirect() async throws {
        let server = try await LocalServer { request in
            if request.path.hasPrefix("/Account/Login") {
                return LocalServer.Response(OccupancyFragments.signInPage)
            }
            return LocalServer.Response(
                status: 302, headers: ["Location": "/Account/Login?ReturnUrl=%2F"], "")
        }
        defer { Task { await server.stop() } }
        await #expect(throws: FetchError.signInRequired(host: "127.0.0.1")) {
            try await fetcher().fetch(
                .get(server.url("/facilityoccupancy"), accept: "text/html"), expecting: .htmlPage)
        }
    }

    @Test("a body of the wrong media type is unexpected content")
    func wrongType() async throws {
        let server = try await LocalServer { _ in LocalServer.Response(contentType: "application/json", "{}")
        }
        defer { Task { await server.stop() } }
        await #expect(
            throws: FetchError.unexpectedContent(
                host: "127.0.0.1", detail: "application/json instead of an HTML page")
        ) {
            try await fetcher().fetch(.get(server.url(), accept: "text/html"), expecting: .htmlPage)
        }
    }

    @Test("cancelling the task (Ctrl-C) ends a request in flight")
    func cancellation() async throws {
        let server = try await LocalServer.stalling(for: 600)
        defer { Task { await server.stop() } }
        let fetcher = fetcher(timeout: 300)
        let url = server.url()
        let task = Task { try await fetcher.fetch(.get(url, accept: "text/html"), expecting: .htmlPage) }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        task.cancel()
        await #expect(throws: FetchError.cancelled) { try await task.value }
        // Not the 300 s timeout nor the 600 s stall: the cancellation ended it (a bound far from both, so a
        // machine's load cannot change the answer).
        #expect(ContinuousClock.now - started < .seconds(150))
    }

    @Test("offline: a name that does not resolve")
    func offline() async throws {
        let url = try #require(URL(string: "http://gymcard-test.invalid/"))
        await #expect(throws: FetchError.offline(host: "gymcard-test.invalid")) {
            try await fetcher(attempts: 1).fetch(.get(url, accept: "text/html"), expecting: .htmlPage)
        }
    }
}

@Suite("Internet dates")
struct InternetDateTests {
    @Test("RFC 1123 dates parse whatever the locale")
    func parse() throws {
        let date = try #require(InternetDate.parse("Fri, 18 Oct 2024 20:00:00 GMT"))
        #expect(date.timeIntervalSince1970 == 1_729_281_600)
        #expect(InternetDate.parse("Fri, 18 Oct 2024 20:00:00 +0000") == date)
        #expect(InternetDate.parse("18 Oct 2024 20:00:00 GMT") == date)
        #expect(InternetDate.parse("yesterday") == nil)
    }
}

import FoundationEssentials
import TextSearch

/// What a caller expects in the body: media types it accepts, and how to name them in a message.
public struct ExpectedContent: Sendable, Equatable {
    /// Accepted media types (lower case, no parameters); empty accepts any. A response without a
    /// `Content-Type` passes.
    public var mediaTypes: Set<String>
    /// How to name the expected content: "an HTML page".
    public var name: String

    /// Creates an expectation.
    public init(mediaTypes: Set<String>, name: String) {
        self.mediaTypes = mediaTypes
        self.name = name
    }

    /// An HTML page or fragment.
    public static let htmlPage = ExpectedContent(
        mediaTypes: ["text/html", "application/xhtml+xml"], name: "an HTML page")

    /// Any answer at all (a push service's acknowledgement, which is not read).
    public static let anything = ExpectedContent(mediaTypes: [], name: "anything")

    /// The `Accept` header value that asks for these types.
    public var acceptHeader: String {
        mediaTypes.isEmpty ? "*/*" : mediaTypes.sorted().joined(separator: ", ") + ", */*;q=0.1"
    }
}

/// Fetches with validation and bounded retry on top of an ``HTTPClient``.
///
/// Only a 2xx answer of the expected media type and size comes back; everything else becomes a
/// ``FetchError``. Transient failures (timeouts, 5xx, 429, dropped connections) are tried again with
/// exponential backoff while the policy's deadline allows; a 429's `Retry-After` is honoured when it
/// fits, and reported otherwise.
public struct Fetcher: Sendable {
    /// Sends the requests.
    public var client: any HTTPClient
    /// Time, size and retry limits.
    public var policy: FetchPolicy

    /// Creates a fetcher.
    public init(client: any HTTPClient, policy: FetchPolicy = FetchPolicy()) {
        self.client = client
        self.policy = policy
    }

    /// Sends `request` until it succeeds, fails for good, or the deadline passes.
    public func fetch(_ request: HTTPRequest, expecting expected: ExpectedContent) async throws(FetchError)
        -> HTTPResponse
    {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(policy.deadlineSeconds))
        var attempt = 1
        while true {
            let remaining = Self.seconds(clock.now.duration(to: deadline))
            let timeout = min(policy.timeoutSeconds, max(remaining, 0.05))
            let failure: FetchError
            do {
                let response = try await client.send(request, timeoutSeconds: timeout)
                return try validate(response, for: request, expected: expected)
            } catch {
                failure = error
            }
            guard failure.isTransient, attempt < policy.maximumAttempts else { throw reported(failure) }
            var wait = policy.backoffSeconds * Double(1 << (attempt - 1))
            if case .rateLimited(_, let retryAfter?) = failure { wait = Double(retryAfter) }
            let left = Self.seconds(clock.now.duration(to: deadline))
            // Waiting only to run out of time would hide the real reason behind a timeout.
            guard wait + 0.05 < left else { throw reported(failure) }
            do { try await Task.sleep(for: .seconds(wait)) } catch { throw .cancelled }
            attempt += 1
        }
    }

    /// A timeout as the person set it: a later try may have had less than `--timeout` left of the
    /// deadline, but "did not answer within 1.5 s" after `--timeout 2` reads as a mistake.
    private func reported(_ failure: FetchError) -> FetchError {
        guard case .timedOut(let host, _) = failure else { return failure }
        return .timedOut(host: host, seconds: policy.timeoutSeconds)
    }

    /// Turns an answer into a success or the error a person should see.
    func validate(_ response: HTTPResponse, for request: HTTPRequest, expected: ExpectedContent)
        throws(FetchError) -> HTTPResponse
    {
        let host = request.host
        switch response.status {
        case 200..<300: break
        case 401, 403: throw .signInRequired(host: host)
        case 429:
            throw .rateLimited(
                host: host, retryAfterSeconds: RetryAfter.seconds(from: response.headers["retry-after"]))
        case 400..<500: throw .clientError(host: host, status: response.status)
        case 500..<600: throw .serverError(host: host, status: response.status)
        default:
            throw .unexpectedContent(
                host: host, detail: "HTTP \(response.status) instead of \(expected.name)")
        }
        if response.body.count > policy.maximumBodyBytes {
            throw .tooLarge(host: host, limitBytes: policy.maximumBodyBytes)
        }
        if response.url != request.url, Self.looksLikeSignIn(response.url) {
            throw .signInRequired(host: host)
        }
        if let type = response.mediaType, !expected.mediaTypes.isEmpty, !expected.mediaTypes.contains(type) {
            throw .unexpectedContent(host: host, detail: "\(type) instead of \(expected.name)")
        }
        return response
    }

    /// A redirect target that is a sign-in page (single sign-on portals, `/Account/Login`).
    static func looksLikeSignIn(_ url: URL) -> Bool {
        let path = url.path.lowercased()
        return ["login", "signin", "sign-in", "/sso", "/cas/", "/auth", "/saml"].contains {
            path.contains($0)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    static func seconds(from value: String?) -> Int? {
        guard let value = value?.trimmed, !value.isEmpty else { return nil }
        // An HTTP date was turned into seconds by the client (CurlClient), which has the date parser.
        return Int(value).map { max(0, $0) }
    }
}

import FoundationEssentials

/// Why a fetch failed, in terms a person can act on.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No network, or the host name does not resolve.
    case offline(host: String)
    /// The host refused the connection (nothing listens there).
    case refused(host: String)
    /// No complete answer within the time limit.
    case timedOut(host: String, seconds: Double)
    /// HTTP 429; `retryAfterSeconds` from `Retry-After` when the server sent it.
    case rateLimited(host: String, retryAfterSeconds: Int?)
    /// HTTP 401 or 403, or a redirect to a sign-in page.
    case signInRequired(host: String)
    /// Any other 4xx status.
    case clientError(host: String, status: Int)
    /// A 5xx status.
    case serverError(host: String, status: Int)
    /// The body is not what was asked for (wrong media type, or a page of the wrong kind).
    case unexpectedContent(host: String, detail: String)
    /// The body is larger than the limit.
    case tooLarge(host: String, limitBytes: Int)
    /// Any other transport failure (TLS, a dropped connection), with the system's words.
    case transport(host: String, detail: String)
    /// Ctrl-C or another cancellation.
    case cancelled

    /// Whether trying again soon may succeed (timeouts, 5xx, 429, dropped connections).
    public var isTransient: Bool {
        switch self {
        case .timedOut, .serverError, .rateLimited, .transport: return true
        default: return false
        }
    }

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .offline(let host):
            return "cannot reach \(host): no network, or the name does not resolve; check the connection"
        case .refused(let host):
            return "\(host) refused the connection; the service may be down, try again later"
        case .timedOut(let host, let seconds):
            return
                "\(host) did not answer within \(Self.format(seconds: seconds)); try again later or raise --timeout"
        case .rateLimited(let host, let retryAfter):
            let wait =
                retryAfter.map { "try again in \(Self.format(seconds: Double($0)))" } ?? "try again later"
            return "\(host) asks gymcard to slow down (HTTP 429); \(wait)"
        case .signInRequired(let host):
            return
                "\(host) asks for a sign-in; the data is no longer public, or the address in the config is wrong"
        case .clientError(let host, let status):
            return "\(host) answered HTTP \(status); the address may have changed"
        case .serverError(let host, let status):
            return "\(host) has a problem of its own (HTTP \(status)); try again later"
        case .unexpectedContent(let host, let detail):
            return "\(host) answered \(detail)"
        case .tooLarge(let host, let limit):
            return "\(host) sent more than \(limit / 1_000_000) MB, far more than expected; not reading it"
        case .transport(let host, let detail):
            return "the connection to \(host) failed: \(detail); try again later"
        case .cancelled:
            return "interrupted"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// `10 s`, `2 min`, `1 h`.
    static func format(seconds: Double) -> String {
        if seconds < 0.1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds < 90 {
            let tenths = Int((seconds * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
        }
        if seconds < 90 * 60 { return "\(Int((seconds / 60).rounded())) min" }
        return "\(Int((seconds / 3600).rounded())) h"
    }
}

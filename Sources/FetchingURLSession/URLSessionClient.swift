import Fetching
import Foundation
import FoundationNetworking
import TextSearch

/// The process's one URLSession, behind ``HTTPClient``.
///
/// Ephemeral (no cookies, no cache on disk), with a `User-Agent: gymcard/<version>` header. Each request
/// runs under a whole-request deadline as well as URLSession's idle timeout, and is cancelled with the
/// task that awaits it (Ctrl-C).
public final class URLSessionClient: HTTPClient {
    private let session: URLSession

    /// Creates the session; `userAgent` is sent with every request.
    public init(userAgent: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` with URLSession; gives up after `timeoutSeconds` from start to last byte.
    public func send(_ request: HTTPRequest, timeoutSeconds: Double) async throws(FetchError) -> HTTPResponse
    {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        urlRequest.setValue(request.accept, forHTTPHeaderField: "Accept")
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let contentType = request.contentType {
            urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        let session = self.session
        let prepared = urlRequest
        let outcome: (Data, URLResponse)?
        do {
            // URLSession's own timeout is an idle timeout: a server that trickles bytes never trips it.
            // Racing a sleep bounds the whole exchange.
            outcome = try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
                group.addTask { try await session.data(for: prepared) }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeoutSeconds))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        } catch {
            throw Self.classify(error, host: request.host, timeoutSeconds: timeoutSeconds)
        }
        guard let (data, response) = outcome else {
            throw .timedOut(host: request.host, seconds: timeoutSeconds)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .unexpectedContent(host: request.host, detail: "something that is not HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        // Retry-After may be an HTTP date; the Fetching module reads only seconds, so convert here.
        if let retryAfter = headers["retry-after"], Int(retryAfter.trimmed) == nil,
            let date = InternetDate.parse(retryAfter)
        {
            headers["retry-after"] = "\(max(0, Int(date.timeIntervalSinceNow.rounded(.up))))"
        }
        return HTTPResponse(
            status: http.statusCode, headers: headers, body: data, url: http.url ?? request.url)
    }

    /// Maps URLSession's errors onto the taxonomy.
    static func classify(_ error: any Error, host: String, timeoutSeconds: Double) -> FetchError {
        if error is CancellationError || Task.isCancelled { return .cancelled }
        guard let urlError = error as? URLError else { return .transport(host: host, detail: "\(error)") }
        switch urlError.code {
        case .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed, .internationalRoamingOff,
            .dataNotAllowed:
            return .offline(host: host)
        case .cannotConnectToHost: return .refused(host: host)
        case .timedOut: return .timedOut(host: host, seconds: timeoutSeconds)
        case .cancelled: return .cancelled
        case .networkConnectionLost:
            return .transport(host: host, detail: "the connection dropped mid-answer")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .transport(host: host, detail: "the TLS handshake failed (is the clock right?)")
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .transport(host: host, detail: "the answer was not valid HTTP")
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .transport(host: host, detail: "it redirects in a loop")
        case .unsupportedURL, .badURL:
            return .transport(host: host, detail: "the address is not an http(s) URL")
        default:
            return .transport(host: host, detail: "URL error \(urlError.code.rawValue)")
        }
    }
}

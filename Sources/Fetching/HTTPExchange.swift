import FoundationEssentials
import TextSearch

/// One HTTP request as gymcard makes it: a GET, or a POST with a form-encoded body.
public struct HTTPRequest: Sendable, Equatable {
    /// The HTTP method.
    public enum Method: String, Sendable {
        /// GET.
        case get = "GET"
        /// POST.
        case post = "POST"
    }

    /// Where the request goes.
    public var url: URL
    /// GET or POST.
    public var method: Method
    /// The body, for a POST.
    public var body: Data?
    /// The body's media type, for a POST.
    public var contentType: String?
    /// The `Accept` header.
    public var accept: String
    /// Other header fields to send (`Referer`, `X-Requested-With`, ntfy's `Title`).
    public var headers: [String: String] = [:]

    /// A GET of `url`.
    public static func get(_ url: URL, accept: String, headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(url: url, method: .get, body: nil, contentType: nil, accept: accept, headers: headers)
    }

    /// A POST of `fields` to `url` as `application/x-www-form-urlencoded`.
    public static func postForm(
        _ url: URL, fields: [(String, String)], accept: String, headers: [String: String] = [:]
    ) -> HTTPRequest {
        let body = fields.map { formEncode($0.0) + "=" + formEncode($0.1) }.joined(separator: "&")
        return HTTPRequest(
            url: url, method: .post, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded",
            accept: accept, headers: headers)
    }

    /// A POST of `text` to `url` as `text/plain; charset=utf-8` (an ntfy message).
    public static func postText(_ url: URL, text: String, accept: String, headers: [String: String] = [:])
        -> HTTPRequest
    {
        HTTPRequest(
            url: url, method: .post, body: Data(text.utf8), contentType: "text/plain; charset=utf-8",
            accept: accept, headers: headers)
    }

    private static let hex = Array("0123456789ABCDEF".unicodeScalars)

    /// Percent-encodes one form name or value (WHATWG application/x-www-form-urlencoded).
    static func formEncode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): encoded += "+"
            default:
                encoded += "%"
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }

    /// The host, for messages.
    public var host: String { url.host ?? url.absoluteString }
}

/// An HTTP answer: status, the headers gymcard reads, the body, and the URL it finally came from.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// The URL after redirects.
    public var url: URL

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.body = body
        self.url = url
    }

    /// The media type without parameters, lower-cased (`text/html`), when the server sent one.
    public var mediaType: String? {
        guard let value = headers["content-type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let trimmed = type.trimmed.lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// Sends one HTTP request and returns whatever came back (any status). Errors are transport failures only.
///
/// gymcard-network uses `CurlClient` (module FetchingCurl); tests point it at a local server through the
/// request URLs.
public protocol HTTPClient: Sendable {
    /// Sends `request`, giving up after `timeoutSeconds`.
    func send(_ request: HTTPRequest, timeoutSeconds: Double) async throws(FetchError) -> HTTPResponse
}

import FlyingFox
import FlyingSocks
import Foundation

/// A real HTTP server on 127.0.0.1 at an ephemeral port, answering with a closure, for tests.
public final class LocalServer: Sendable {
    /// What a handler receives.
    public struct Request: Sendable {
        /// `GET`, `POST`.
        public var method: String
        /// The path, such as `/occupancy`.
        public var path: String
        /// Header fields, names lower-cased.
        public var headers: [String: String]
        /// The body.
        public var body: Data

        /// The body as form fields (`application/x-www-form-urlencoded`).
        public var formFields: [String: String] {
            var fields: [String: String] = [:]
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return fields
        }
    }

    /// What a handler answers.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Header fields.
        public var headers: [String: String]
        /// The body.
        public var body: Data

        /// An answer; `contentType` goes into the headers.
        public init(
            status: Int = 200, contentType: String? = "text/html; charset=utf-8",
            headers: [String: String] = [:], body: Data
        ) {
            self.status = status
            var all = headers
            if let contentType { all["Content-Type"] = contentType }
            self.headers = all
            self.body = body
        }

        /// A text answer.
        public init(
            status: Int = 200, contentType: String? = "text/html; charset=utf-8",
            headers: [String: String] = [:], _ text: String
        ) {
            self.init(status: status, contentType: contentType, headers: headers, body: Data(text.utf8))
        }
    }

    private let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port the server listens on.
    public let port: UInt16

    /// Starts a server whose every request is answered by `handler`.
    public init(_ handler: @escaping @Sendable (Request) async throws -> Response) async throws {
        let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: 0)
        let server = HTTPServer(address: address, timeout: 60, logger: .disabled)
        await server.appendRoute("*") { request in
            var headers: [String: String] = [:]
            for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
            let body = try await request.bodyData
            let answer = try await handler(
                Request(method: request.method.rawValue, path: request.path, headers: headers, body: body))
            var responseHeaders: HTTPHeaders = [:]
            for (name, value) in answer.headers { responseHeaders[HTTPHeader(name)] = value }
            return HTTPResponse(
                statusCode: HTTPStatusCode(answer.status, phrase: "Status"), headers: responseHeaders,
                body: answer.body)
        }
        self.server = server
        task = Task { try await server.run() }
        // Generous: on a loaded 2-core machine the server's task can wait seconds for a pool thread while
        // CPU-heavy tests run (FlyingFox's default is 5 s, which CI runs have exceeded).
        try await server.waitUntilListening(timeout: 60)
        let listening = await server.listeningAddress
        guard case .ip4(_, let port) = listening else {
            throw CocoaError(.featureUnsupported)
        }
        self.port = port
    }

    /// A server that answers nothing for `seconds` (then "late"): a source that stalls.
    public static func stalling(for seconds: Int) async throws -> LocalServer {
        try await LocalServer { _ in
            try await Task.sleep(for: .seconds(seconds))
            return Response("late")
        }
    }

    // 127.0.0.1 with a port and a path always makes a URL.
    // swift-format-ignore: NeverForceUnwrap
    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops the server and closes its connections.
    public func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }

    /// A port on 127.0.0.1 where nothing listens (bound, then closed), for "connection refused".
    public static func closedPort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.featureUnsupported) }
        return UInt16(bigEndian: address.sin_port)
    }
}

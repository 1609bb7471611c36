import Foundation
import Synchronization

/// A real HTTP server on 127.0.0.1 at an ephemeral port, answering with a closure, for tests.
///
/// HTTP/1.1, one request per connection (`Connection: close`). Accepting, reading and writing run on
/// threads of their own and the handlers on ``ThreadExecutor``'s thread, never on the concurrency pool:
/// tests that compute on the pool's two threads (making photos, scrypt) made a server on it answer
/// after 20 s and more on a loaded machine (FlyingFox's server, used before, runs on the pool).
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
        /// The query string, without its `?` (`AccountAPIKey=…`), when the target has one.
        public var query: String?

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

        /// A JSON answer, typed as the vendors' APIs type theirs.
        public static func json(_ body: Data, status: Int = 200) -> Response {
            Response(status: status, contentType: "application/json; charset=utf-8", body: body)
        }

        /// A text answer.
        public init(
            status: Int = 200, contentType: String? = "text/html; charset=utf-8",
            headers: [String: String] = [:], _ text: String
        ) {
            self.init(status: status, contentType: contentType, headers: headers, body: Data(text.utf8))
        }
    }

    private let listener: Int32
    private let handler: @Sendable (Request) async throws -> Response
    private let open = Mutex(Connections())
    /// The port the server listens on.
    public let port: UInt16

    /// The handlers' thread, shared by every server of the test process.
    static let handlers = ThreadExecutor(name: "gymcard-test-http")

    private struct Connections {
        var stopped = false
        var sockets: Set<Int32> = []
        var tasks: [Int32: Task<Response, any Error>] = [:]
    }

    /// Starts a server whose every request is answered by `handler`.
    public init(_ handler: @escaping @Sendable (Request) async throws -> Response) async throws {
        (listener, port) = try Self.bindLoopback(listening: true)
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "gymcard-test-http-accept"
        thread.start()
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if open.withLock({ $0.stopped }) { break }
                usleep(1000)  // EINTR, ECONNABORTED, EMFILE: the listener stays until stop().
                continue
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)  // accept4 is not in Glibc's Swift overlay
            let admitted = open.withLock { state in
                guard !state.stopped else { return false }
                state.sockets.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                break
            }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "gymcard-test-http-connection"
            thread.start()
        }
        close(listener)
    }

    /// Reads one request, answers it, and closes the connection (here, and only here).
    private func serve(_ connection: Int32) {
        defer {
            // Under the lock, so that stop() never shuts down a descriptor closed here (and reused).
            open.withLock { state in
                state.sockets.remove(connection)
                state.tasks[connection] = nil
                close(connection)
            }
        }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        let task = Task(executorPreference: Self.handlers) { [handler] in try await handler(request) }
        open.withLock { $0.tasks[connection] = task }
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<Response?>(nil)
        Task(executorPreference: Self.handlers) {
            let response: Response
            do { response = try await task.value } catch {
                response = Response(status: 500, contentType: "text/plain", "\(error)")
            }
            answer.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        guard let response = answer.withLock({ $0 }) else { return }
        var head = "HTTP/1.1 \(response.status) \(Self.phrase(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = request.method == "HEAD" ? Data(head.utf8) : Data(head.utf8) + response.body
        _ = write(bytes, to: connection)
        shutdown(connection, Int32(SHUT_WR))
    }

    /// The request line, the header fields and a `Content-Length` body; nil when the client went away.
    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self).components(
            separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            _ = write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection)
        }
        var body = Data(buffer[headEnd.upperBound...])
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while body.count < length {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        let target = String(parts[1])
        let components = URLComponents(string: target)
        return Request(
            method: String(parts[0]), path: components?.path ?? target, headers: headers,
            body: body.prefix(length), query: components?.percentEncodedQuery)
    }

    /// Writes all of `data`; false when the client went away (no SIGPIPE).
    private func write(_ data: Data, to connection: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = send(
                    connection, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    private static func phrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
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

    /// Stops the server: no new connection is taken, open ones are shut down and their handlers
    /// cancelled (each connection's thread closes its own socket, so no descriptor is closed twice).
    public func stop() async {
        let tasks = open.withLock { state in
            guard !state.stopped else { return [Task<Response, any Error>]() }
            state.stopped = true
            // The accept thread closes the listener only once it sees `stopped`, after this.
            shutdown(listener, Int32(SHUT_RDWR))
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    /// A socket bound to an ephemeral port of 127.0.0.1, listening or not: its descriptor and port.
    static func bindLoopback(listening: Bool) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && (!listening || listen(descriptor, 128) == 0)
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// A port on 127.0.0.1 that refuses connections for as long as the value lives, for "connection
    /// refused": bound and never listening, so that no other process (tests run beside each other) can
    /// take the port meanwhile, as one closed at once could be.
    public final class ClosedPort: Sendable {
        /// The port.
        public let port: UInt16
        private let descriptor: Int32

        /// Binds an ephemeral port on 127.0.0.1.
        public init() throws { (descriptor, port) = try LocalServer.bindLoopback(listening: false) }

        deinit { close(descriptor) }
    }
}

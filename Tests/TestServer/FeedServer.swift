import Foundation

/// A local feed server whose answer the test switches, counting requests.
public final class FeedServer: Sendable {
    /// The answer to every request, switched by the test.
    public let answer: Locked<LocalServer.Response>
    /// Requests answered so far.
    public let requests = Locked(0)
    /// The server.
    public let server: LocalServer

    /// Starts answering with `first`.
    public init(_ first: LocalServer.Response) async throws {
        let answer = Locked(first)
        let requests = requests
        self.answer = answer
        server = try await LocalServer { _ in
            requests.withLock { $0 += 1 }
            return answer.withLock { $0 }
        }
    }

    /// An RSS answer.
    public static func rss(_ text: String) -> LocalServer.Response {
        LocalServer.Response(contentType: "application/rss+xml; charset=utf-8", text)
    }
}

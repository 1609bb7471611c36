import Events
import Fetching
import Glibc
import Spawning

/// What only `gymcard-network` has: the HTTP client (libcurl) and the feed parsers (all of Foundation).
///
/// Linking Foundation and FoundationNetworking made every gymcard process start in 7–16 ms instead of
/// 2–3 ms (their tens of thousands of protocol conformances are scanned on the first dynamic casts of
/// argument parsing and JSON decoding). So `gymcard` itself links only FoundationEssentials and hands
/// the commands that need the network to `gymcard-network`, installed beside it, by `exec`: the same
/// command line, the same code, one extra exec of about 8 ms before a network round trip.
public struct Online: Sendable {
    /// The User-Agent of every request.
    public static let userAgent = "gymcard/\(version)"
    /// gymcard's version, as `--version` prints it.
    public static let version = "0.2.0"

    /// Makes the process's HTTP client; the argument is the User-Agent.
    public var makeClient: @Sendable (String) -> any HTTPClient
    /// Reads an events feed (RSS needs FoundationXML, iCalendar named time zones: all of Foundation).
    public var readEventsFeed: EventsFeedReader

    /// Creates the hook.
    public init(
        makeClient: @escaping @Sendable (String) -> any HTTPClient,
        readEventsFeed: @escaping EventsFeedReader
    ) {
        self.makeClient = makeClient
        self.readEventsFeed = readEventsFeed
    }
}

extension Online {
    /// Replaces this process by `gymcard-network` with the same arguments, as the entry point does right
    /// after parsing a command that fetches at once, and a context does on the first fetch of a command
    /// that may answer from its cache. Returns only when it could not be run, with why.
    public static func handOff() -> ContextProblem {
        let path = RunningExecutable.folder.map { $0 + "gymcard-network" } ?? "gymcard-network"
        // The strings are not freed: execv replaces the process, and on failure we exit soon after.
        let argv = ([path] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
        execv(path, argv)
        return .networkUnavailable(path: path, reason: String(cString: strerror(errno)))
    }
}

/// The network hook, or the hand-over to `gymcard-network` on the first fetch.
struct NetworkAccess: Sendable {
    let hook: Online?
    let config: ConfigFile

    /// The hook when this is gymcard-network; otherwise the process is replaced by gymcard-network with
    /// the same arguments (this call then never returns).
    func online() throws(ContextProblem) -> Online {
        if let hook { return hook }
        if config.warned { setenv(ConfigFile.warnedVariable, "1", 1) }
        throw Online.handOff()
    }
}

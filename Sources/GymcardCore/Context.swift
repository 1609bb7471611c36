import CivilTime
import Configuration
import Fetching
import FoundationEssentials
import Storage

/// What a gymcard process knows about the world it runs in, built once by the entry point and passed to
/// every command and use case (ARCHITECTURE §3): the environment, the XDG folders, the clock, the config
/// file (read once), the facilities' time zones, where warnings go, and network access.
///
/// Nothing below the entry point reads the process environment, the time or the config file on its own:
/// tests build a context with the values they want and call the use cases in-process.
public struct Context: Sendable {
    /// The environment the process was started with.
    public let environment: [String: String]
    /// `$XDG_CONFIG_HOME`, `$XDG_STATE_HOME`, `$XDG_CACHE_HOME`, `$XDG_DATA_HOME` with their defaults.
    public let directories: XDGDirectories
    /// "Now" and sleeping (`GYMCARD_TEST_NOW` and `GYMCARD_TEST_TIME_SCALE` in tests).
    public let clock: CurrentTime
    /// `$XDG_CONFIG_HOME/gymcard/config.json`, read on first use and kept.
    public let config: ConfigFile
    /// Says one line to the person (stderr in the CLI): warnings that do not stop a command.
    public let warn: @Sendable (String) -> Void
    /// The HTTP client and feed readers, or the hand-over to `gymcard-network` (see ``Online``).
    private let network: NetworkAccess

    /// A context over `environment`; `online` is the network hook (`nil` in `gymcard` itself, where the
    /// first use of the network hands the process over to `gymcard-network`); `configShape`, every key the
    /// config file may hold (`nil`: keys are not checked).
    public init(
        environment: [String: String], online: Online?, configShape: ConfigShape? = nil,
        warn: @escaping @Sendable (String) -> Void
    ) throws(ContextProblem) {
        self.environment = environment
        directories = XDGDirectories(environment: environment)
        clock = try CurrentTime(environment)
        self.warn = warn
        config = ConfigFile(
            directories: directories, environment: environment, shape: configShape, warn: warn)
        network = NetworkAccess(hook: online, config: config)
    }

    /// This process's network access: the hook when this is `gymcard-network`, otherwise the process is
    /// replaced by `gymcard-network` with the same arguments (the call then never returns).
    public func online() throws(ContextProblem) -> Online { try network.online() }

    /// An HTTP client with a whole-request timeout and up to three tries for transient failures.
    public func fetcher(timeoutSeconds: Double = FetchPolicy().timeoutSeconds) throws(ContextProblem)
        -> Fetcher
    {
        Fetcher(
            client: try online().makeClient(Online.userAgent),
            policy: FetchPolicy(timeoutSeconds: timeoutSeconds))
    }

    /// The facilities' time zone named `identifier` (an IANA name such as `America/New_York`), read from
    /// tzdata's file (`$TZDIR`, else `/usr/share/zoneinfo`); the process's own zone is left alone.
    public func zone(_ identifier: String) throws(ContextProblem) -> LocalTimeZone {
        try FacilityZone.zone(identifier, environment: environment)
    }

    /// Whether tzdata here has a zone named `identifier`.
    public func hasZone(_ identifier: String) -> Bool {
        FacilityZone.isInstalled(identifier, directory: zoneDirectory)
    }

    /// Where tzdata lives: `$TZDIR`, else `/usr/share/zoneinfo`.
    public var zoneDirectory: String { FacilityZone.zoneDirectory(environment) }
}

/// What can keep a context from being made or used; the CLI words the advice.
public enum ContextProblem: Error, Equatable, CustomStringConvertible {
    /// `GYMCARD_TEST_TIME_SCALE` or `GYMCARD_TEST_NOW` is not what the tests may set.
    case invalidTestClock(String)
    /// tzdata has no zone of this name: the identifier and the directory looked in.
    case unknownZone(String, directory: String)
    /// tzdata's file for the zone cannot be read or is not a time zone file: the identifier, the file and why.
    case unreadableZone(String, path: String, reason: String)
    /// `gymcard-network` could not be run: its path and why.
    case networkUnavailable(path: String, reason: String)

    /// The problem in words, without advice (the CLI adds it).
    public var description: String {
        switch self {
        case .invalidTestClock(let what): what
        case .unknownZone(let identifier, let directory):
            "the time zone \(identifier) is not known here (no \(directory)/\(identifier))"
        case .unreadableZone(let identifier, let path, let reason):
            "the time zone \(identifier) cannot be read from \(path): \(reason)"
        case .networkUnavailable(let path, let reason): "\(path) cannot be run (\(reason))"
        }
    }
}

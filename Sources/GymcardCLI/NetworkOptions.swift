import ArgumentParser
import Fetching
import FoundationEssentials
import Glibc
import Occupancy
import Storage

/// Options and set-up shared by the commands that use the network: `occupancy`, `events`, `facilities`.
struct NetworkOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("Give up on a request after this many seconds.", valueName: "SECONDS")
    )
    var timeout: Double = 10

    func validate() throws {
        guard timeout >= 0.1, timeout <= 120 else {
            throw ValidationError("--timeout must be between 0.1 and 120 seconds")
        }
    }

    /// The process's one HTTP client, with a whole-request timeout and up to three tries for transient
    /// failures within twice that.
    func fetcher() throws -> Fetcher {
        Fetcher(
            client: try Online.required().makeClient("gymcard/\(Gymcard.version)"),
            policy: FetchPolicy(timeoutSeconds: timeout))
    }
}

/// `$XDG_CONFIG_HOME/gymcard/config.json`: read once, handed to each library to pick its section.
enum ConfigFile {
    /// The config file's path.
    static func path(_ directories: XDGDirectories) -> String {
        directories.configHome + "/gymcard/config.json"
    }

    /// The file's bytes, or `nil` when there is none.
    static func read(_ directories: XDGDirectories) throws -> Data? {
        let path = path(directories)
        do { return try FileContents.read(path, limitBytes: 1 << 20).map { Data($0) } } catch {
            throw Failure("cannot read the config file: \(error)", status: .configError)
        }
    }

    /// The occupancy settings: defaults, the config file, then the environment.
    static func occupancySettings(_ directories: XDGDirectories, environment: [String: String]) throws
        -> OccupancySettings
    {
        do {
            return try OccupancySettings.resolve(configFile: read(directories), environment: environment)
        } catch let problem as ConfigProblem {
            throw failure(problem, directories)
        }
    }

    /// A config problem as a failure naming the file.
    static func failure(_ problem: ConfigProblem, _ directories: XDGDirectories) -> Failure {
        Failure("\(path(directories)): \(problem); fix or remove it", status: .configError)
    }
}

/// Ctrl-C for the long-running commands: restore what the terminal needs and leave at once.
enum Interrupt {
    /// Written to stdout on Ctrl-C before exiting (show the cursor again); empty for nothing.
    nonisolated(unsafe) static var restoreSequence: [UInt8] = []
    /// The exit status on Ctrl-C: 0 ends a watch normally, 130 marks an interrupted one-shot command.
    nonisolated(unsafe) static var exitStatus: Int32 = 130

    /// Installs the handler. Set ``restoreSequence`` and ``exitStatus`` before calling.
    static func install() {
        signal(SIGINT) { _ in
            Interrupt.restoreSequence.withUnsafeBufferPointer { bytes in
                _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
            }
            _exit(Interrupt.exitStatus)
        }
        unblock()
    }

    /// A parent may have started us with SIGINT blocked (the mask survives exec; `swift test` does it):
    /// Ctrl-C must still reach us.
    static func unblock() {
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }
}

/// Local wall-clock times without Foundation's formatters (not in FoundationEssentials).
enum LocalTime {
    /// `15:04:05` in the local time zone (`TZ` respected).
    static func clock(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

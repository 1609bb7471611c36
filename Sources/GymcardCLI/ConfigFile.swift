import Events
import Fetching
import FoundationEssentials
import Occupancy
import Storage

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

    /// The events settings: the default feed, the config file, then the environment.
    static func eventsSettings(_ directories: XDGDirectories, environment: [String: String]) throws
        -> EventsSettings
    {
        do {
            return try EventsSettings.resolve(configFile: read(directories), environment: environment)
        } catch let problem as ConfigProblem {
            throw failure(problem, directories)
        }
    }

    /// A config problem as a failure naming the file.
    static func failure(_ problem: ConfigProblem, _ directories: XDGDirectories) -> Failure {
        Failure("\(path(directories)): \(problem); fix or remove it", status: .configError)
    }
}

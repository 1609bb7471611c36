import Events
import Fetching
import FoundationEssentials
import Occupancy
import OpeningHours
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
        try settings(directories) { file throws(ConfigProblem) in
            try OccupancySettings.resolve(configFile: file, environment: environment)
        }
    }

    /// The events settings: the default feed, the config file, then the environment.
    static func eventsSettings(_ directories: XDGDirectories, environment: [String: String]) throws
        -> EventsSettings
    {
        try settings(directories) { file throws(ConfigProblem) in
            try EventsSettings.resolve(configFile: file, environment: environment)
        }
    }

    /// Where opening hours come from: the RecSports hours service, the config file, then the environment.
    static func hoursSettings(_ directories: XDGDirectories, environment: [String: String]) throws
        -> HoursSettings
    {
        try settings(directories) { file throws(ConfigProblem) in
            try HoursSettings.resolve(configFile: file, environment: environment)
        }
    }

    /// One library's settings from the file's bytes; a problem becomes a failure naming the file.
    private static func settings<Settings>(
        _ directories: XDGDirectories, resolve: (Data?) throws(ConfigProblem) -> Settings
    ) throws -> Settings {
        let file = try read(directories)
        do { return try resolve(file) } catch { throw failure(error, directories) }
    }

    /// A config problem as a failure naming where it is: the file, or the environment variable.
    static func failure(_ problem: ConfigProblem, _ directories: XDGDirectories) -> Failure {
        problem.isInEnvironment
            ? Failure("\(problem); fix or unset it", status: .configError)
            : Failure("\(path(directories)): \(problem); fix or remove it", status: .configError)
    }
}

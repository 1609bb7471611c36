import Configuration
import Events
import FoundationEssentials
import Glibc
import Occupancy
import OpeningHours
import Storage

/// `$XDG_CONFIG_HOME/gymcard/config.json`: read once, handed to each library to pick its section.
enum ConfigFile {
    /// The config file's path.
    static func path(_ directories: XDGDirectories) -> String {
        directories.configHome + "/gymcard/config.json"
    }

    /// Every key the file may hold; others get a warning naming the closest known key.
    static let shape = ConfigShape.object([
        "occupancy": OccupancySettings.configShape,
        "events": EventsSettings.configShape,
        "hours": HoursSettings.configShape,
        "notify": Notifier.configShape,
        "campus": .value,
        "campuses": .map(CampusProfile.configShape),
    ])

    /// Set in the environment of `gymcard-network` when `gymcard` has already warned about the file,
    /// so that a command handed over does not say it twice.
    static let warnedVariable = "GYMCARD_CONFIG_WARNED"

    /// Whether this process has said the file's warnings.
    nonisolated(unsafe) static var warned = false

    /// The file's bytes, or `nil` when there is none. Not JSON, or not an object at the top, is a
    /// failure (78) with the line and column; unknown keys are warned about once per command.
    static func read(_ directories: XDGDirectories) throws -> Data? {
        let path = path(directories)
        let file: Data?
        do { file = try FileContents.read(path, limitBytes: 1 << 20).map { Data($0) } } catch {
            throw Failure("cannot read the config file: \(error)", status: .configError)
        }
        guard let file else { return nil }
        do { try ConfigProblem.checkDocument(file) } catch { throw failure(error, directories) }
        if !warned {
            warned = true
            if getenv(warnedVariable) == nil {
                for unknown in shape.unknownKeys(in: file) {
                    Terminal.standardError.say("warning: \(path): \(unknown)")
                }
            }
        }
        return file
    }

    /// The occupancy settings: defaults, the config file, then the environment.
    static func occupancySettings(
        _ directories: XDGDirectories, environment: [String: String], campus: String? = nil
    ) throws -> OccupancySettings {
        var settings = try settings(directories) { file throws(ConfigProblem) in
            try OccupancySettings.resolve(configFile: file, environment: environment, campus: campus)
        }
        settings.configFilePath = path(directories)
        return settings
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
    ///
    /// A campus profile (`campus` not `nil`) has no hours service: its hours are the weekly hours in its
    /// profile's `hours`, or unknown.
    static func hoursSettings(_ directories: XDGDirectories, environment: [String: String], campus: String?)
        throws -> HoursSettings
    {
        var settings = try settings(directories) { file throws(ConfigProblem) in
            guard let campus else {
                return try HoursSettings.resolve(configFile: file, environment: environment)
            }
            return try HoursSettings.resolve(configFile: file, campus: campus)
        }
        settings.configFilePath = path(directories)
        return settings
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

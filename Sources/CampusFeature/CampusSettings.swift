import Configuration
import Events
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours

/// The config file's sections the campus's use cases read (`occupancy`, `events`, `hours`, `notify`,
/// `campus`, `campuses`), and their settings resolved: defaults, the file, then the environment.
extension ConfigFile {
    /// The sections' keys, for the program's whole shape of the file (``ConfigFile/shape``).
    public static let campusSections: [String: ConfigShape] = [
        "occupancy": OccupancySettings.configShape,
        "events": EventsSettings.configShape,
        "hours": HoursSettings.configShape,
        "notify": notifyShape,
        "campus": .value,
        "campuses": .map(CampusProfile.configShape),
    ]

    /// The `notify` section: desktop notifications when `wait` ends.
    public static let notifyShape = ConfigShape.object(["ntfy": .value, "priority": .value])

    /// The occupancy settings: defaults, the file, then the environment.
    public func occupancySettings(campus: String? = nil) throws(ConfigFileProblem) -> OccupancySettings {
        var settings = try resolve { file throws(ConfigProblem) in
            try OccupancySettings.resolve(configFile: file, environment: environment, campus: campus)
        }
        settings.configFilePath = path
        return settings
    }

    /// The events settings: the default feed, the file, then the environment.
    public func eventsSettings() throws(ConfigFileProblem) -> EventsSettings {
        try resolve { file throws(ConfigProblem) in
            try EventsSettings.resolve(configFile: file, environment: environment)
        }
    }

    /// Where opening hours come from: the RecSports hours service, the file, then the environment.
    ///
    /// A campus profile (`campus` not `nil`) has no hours service: its hours are the weekly hours in its
    /// profile's `hours`, or unknown.
    public func hoursSettings(campus: String?) throws(ConfigFileProblem) -> HoursSettings {
        var settings = try resolve { file throws(ConfigProblem) in
            guard let campus else {
                return try HoursSettings.resolve(configFile: file, environment: environment)
            }
            return try HoursSettings.resolve(configFile: file, campus: campus)
        }
        settings.configFilePath = path
        return settings
    }
}

import Configuration
import FoundationEssentials

/// Where each facility's opening hours come from: defaults (ARCHITECTURE §10), then the config file's `hours`
/// section, then `GYMCARD_HOURS_URL`.
///
/// ```json
/// "hours": {
///   "url": "https://apps.students.vt.edu/rshours/Api/NonRestricted/UnitsOpenOnDay",
///   "facilities": {
///     "mccomas": { "unit": "1", "exceptions": { "2026-11-26": "closed" } },
///     "bouldering-wall": {
///       "weekly": { "mon": "16:00-22:00", "sat": ["10:00-13:00", "14:00-18:00"], "sun": "closed" }
///     }
///   }
/// }
/// ```
public struct HoursSettings: Sendable, Equatable {
    /// The RecSports hours service's base: everything before `/Date/<YYYY-MM-DD>`.
    public var url: URL
    /// Each facility's source, by facility key; a facility not listed has no source (unknown).
    public var sources: [String: HoursSource]
    /// Where ``url`` came from: what a 404 tells a person to check.
    public var urlOrigin: SettingOrigin = .builtIn
    /// The config file's path, for that advice.
    public var configFilePath = "the config file"
    /// Where the config file gives a facility's hours: `hours.facilities` (Virginia Tech) or
    /// `campuses.<name>.hours` (an added campus), followed by `.<key>`.
    public var configSection = "hours.facilities"

    /// What to do when the service answers 404: check where its address came from.
    public var urlAdvice: String { urlOrigin.advice(key: "hours.url", configPath: configFilePath) }

    /// Where one facility's hours come from.
    public struct HoursSource: Sendable, Equatable {
        /// The unit ID at the RecSports hours service, when the hours come from it.
        public var unit: String?
        /// Fixed weekly hours and dated exceptions (exceptions also override the service's answer).
        public var schedule: WeeklySchedule

        /// Creates a source.
        public init(unit: String? = nil, schedule: WeeklySchedule = WeeklySchedule()) {
            self.unit = unit
            self.schedule = schedule
        }
    }

    // A literal URL that parses.
    // swift-format-ignore: NeverForceUnwrap
    /// Virginia Tech: McComas Hall is unit 1 and War Memorial Hall unit 2 at RecSports' hours service; the
    /// Bouldering Wall has no unit there.
    public static let virginiaTech = HoursSettings(
        url: URL(string: "https://apps.students.vt.edu/rshours/Api/NonRestricted/UnitsOpenOnDay")!,
        sources: ["mccomas": HoursSource(unit: "1"), "war-memorial": HoursSource(unit: "2")])

    /// Creates settings.
    public init(url: URL, sources: [String: HoursSource]) {
        self.url = url
        self.sources = sources
    }

    /// Whether any facility's hours come from the hours service.
    public func usesService(for facilities: [String]) -> Bool {
        facilities.contains { sources[$0]?.unit != nil }
    }

    /// The keys of the config file's `hours` section.
    public static let configShape = ConfigShape.object([
        "url": .value,
        "facilities": .map(
            .object([
                "unit": .value,
                // Weekday names are checked (and refused) where the schedule is read.
                "weekly": .map(.value),
                "exceptions": .map(.value),
            ])),
    ])

    struct File: Decodable {
        var hours: Section?
    }

    struct Section: Decodable {
        var url: String?
        var facilities: [String: FacilityEntry]?
    }

    struct FacilityEntry: Decodable {
        var unit: String?
        var weekly: [String: DayText]?
        var exceptions: [String: DayText]?
    }

    /// Applies a config file's `hours` section and the environment on top of the defaults.
    public static func resolve(configFile: Data?, environment: [String: String]) throws(ConfigProblem)
        -> HoursSettings
    {
        var settings = HoursSettings.virginiaTech
        if let configFile {
            let file: File
            do { file = try JSONDecoder().decode(File.self, from: configFile) } catch {
                throw ConfigProblem(ConfigProblem.describe(error))
            }
            if let section = file.hours { try settings.apply(section) }
        }
        if let text = environment["GYMCARD_HOURS_URL"], !text.isEmpty {
            settings.url = try ConfigProblem.url(text, environmentVariable: "GYMCARD_HOURS_URL")
            settings.urlOrigin = .environment(variable: "GYMCARD_HOURS_URL")
        }
        return settings
    }

    /// A campus profile's hours: the config file's `campuses.<campus>.hours` (facility key → weekly hours
    /// and exceptions, as in the `hours` section), with no hours service.
    public static func resolve(configFile: Data?, campus: String) throws(ConfigProblem) -> HoursSettings {
        struct CampusFile: Decodable {
            struct Profile: Decodable { var hours: [String: FacilityEntry]? }
            var campuses: [String: Profile]?
        }
        var settings = HoursSettings(url: HoursSettings.virginiaTech.url, sources: [:])
        settings.configSection = "campuses.\(campus).hours"
        guard let configFile else { return settings }
        let file: CampusFile
        do { file = try JSONDecoder().decode(CampusFile.self, from: configFile) } catch {
            throw ConfigProblem(ConfigProblem.describe(error))
        }
        for (key, entry) in file.campuses?[campus]?.hours ?? [:] {
            let path = "campuses.\(campus).hours.\(key)"
            if entry.unit != nil {
                throw ConfigProblem(
                    "\(path).unit: only Virginia Tech has an hours service; give weekly hours")
            }
            let schedule = try WeeklySchedule.parse(
                weekly: entry.weekly, exceptions: entry.exceptions, key: path)
            settings.sources[key] = HoursSource(schedule: schedule)
        }
        return settings
    }

    private mutating func apply(_ section: Section) throws(ConfigProblem) {
        if let text = section.url {
            url = try ConfigProblem.url(text, key: "hours.url")
            urlOrigin = .configFile(key: "hours.url")
        }
        for (key, entry) in section.facilities ?? [:] {
            let path = "hours.facilities.\(key)"
            if entry.unit != nil, entry.weekly != nil {
                throw ConfigProblem("\(path) has both unit and weekly; give one of them")
            }
            let schedule = try WeeklySchedule.parse(
                weekly: entry.weekly, exceptions: entry.exceptions, key: path)
            // Exceptions alone keep the default unit; weekly hours replace it.
            let unit = entry.weekly == nil ? entry.unit ?? sources[key]?.unit : nil
            sources[key] = HoursSource(unit: unit, schedule: schedule)
        }
    }
}

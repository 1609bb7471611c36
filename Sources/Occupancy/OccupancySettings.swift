import Configuration
import FoundationEssentials

/// Where occupancy comes from and which facilities to show: defaults (DESIGN §7), then the config file's
/// `occupancy` section, then `GYMCARD_OCCUPANCY_URL`.
public struct OccupancySettings: Sendable, Equatable {
    /// The endpoint that answers one facility's fragment to a POST.
    public var endpoint: URL
    /// The full occupancy page (GET), for `facilities --discover`.
    public var page: URL
    /// The `occupancyDisplayType` form field.
    public var displayType: String
    /// Facilities in display order.
    public var facilities: [Facility]
    /// The facilities' time zone (an IANA name): weekdays and times in the history are local to it.
    public var timeZone: String
    /// Where ``endpoint`` came from, and the config file's path: what a 404 tells a person to check.
    public var endpointOrigin: SettingOrigin = .builtIn
    /// The config file's path, for that advice.
    public var configFilePath = "the config file"

    /// What to do when the endpoint answers 404: check where its address came from.
    public var endpointAdvice: String {
        endpointOrigin.advice(key: "occupancy.endpoint", configPath: configFilePath)
    }

    // Literal URLs that parse.
    // swift-format-ignore: NeverForceUnwrap
    /// Virginia Tech's endpoint and facilities.
    public static let virginiaTech = OccupancySettings(
        endpoint: URL(string: "https://connect.recsports.vt.edu/FacilityOccupancy/GetFacilityData")!,
        page: URL(string: "https://connect.recsports.vt.edu/facilityoccupancy")!,
        displayType: "00000000-0000-0000-0000-000000004490",
        facilities: Facility.virginiaTech, timeZone: "America/New_York")

    /// Creates settings.
    public init(
        endpoint: URL, page: URL, displayType: String, facilities: [Facility],
        timeZone: String = "America/New_York"
    ) {
        self.endpoint = endpoint
        self.page = page
        self.displayType = displayType
        self.facilities = facilities
        self.timeZone = timeZone
    }

    /// The keys of the config file's `occupancy` section.
    public static let configShape = ConfigShape.object([
        "endpoint": .value, "page": .value, "displayType": .value, "timeZone": .value,
        "facilities": .list(
            .object([
                "key": .value, "name": .value, "shortName": .value, "id": .value, "capacity": .value,
                "segments": .value,
            ])),
    ])

    /// The config file: only its `occupancy` section matters here.
    struct File: Decodable {
        var occupancy: Section?
    }

    /// The `occupancy` section of the config file, every key optional.
    struct Section: Decodable {
        var endpoint: String?
        var page: String?
        var displayType: String?
        var facilities: [FacilityEntry]?
        var timeZone: String?
    }

    /// A facility in the config file; `shortName` and `segments` may be left out.
    struct FacilityEntry: Decodable {
        var key: String
        var name: String
        var shortName: String?
        var id: String
        var capacity: Int
        var segments: Int?
    }

    /// Applies a config file's `occupancy` section and the environment on top of the defaults.
    ///
    /// - Throws: a message naming what is wrong when the section or the variable is invalid.
    public static func resolve(configFile: Data?, environment: [String: String]) throws(ConfigProblem)
        -> OccupancySettings
    {
        var settings = OccupancySettings.virginiaTech
        if let configFile {
            let file: File
            do { file = try JSONDecoder().decode(File.self, from: configFile) } catch {
                throw ConfigProblem(ConfigProblem.describe(error))
            }
            if let section = file.occupancy { try settings.apply(section) }
        }
        if let text = environment["GYMCARD_OCCUPANCY_URL"], !text.isEmpty {
            settings.endpoint = try ConfigProblem.url(text, environmentVariable: "GYMCARD_OCCUPANCY_URL")
            settings.endpointOrigin = .environment(variable: "GYMCARD_OCCUPANCY_URL")
        }
        return settings
    }

    private mutating func apply(_ section: Section) throws(ConfigProblem) {
        var settings = self
        if let text = section.endpoint {
            settings.endpoint = try ConfigProblem.url(text, key: "occupancy.endpoint")
            settings.endpointOrigin = .configFile(key: "occupancy.endpoint")
        }
        if let text = section.page { settings.page = try ConfigProblem.url(text, key: "occupancy.page") }
        if let displayType = section.displayType { settings.displayType = displayType }
        if let zone = section.timeZone {
            // An IANA name such as America/New_York: letters, digits, _ + - and / between parts.
            let valid =
                !zone.isEmpty && !zone.hasPrefix("/") && !zone.contains("..")
                && zone.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_+-/".contains($0)) }
            guard valid else {
                throw ConfigProblem("occupancy.timeZone is not a time zone name such as America/New_York")
            }
            settings.timeZone = zone
        }
        if let entries = section.facilities {
            guard !entries.isEmpty else { throw ConfigProblem("occupancy.facilities is empty") }
            var keys = Set<String>()
            settings.facilities = try entries.map { entry throws(ConfigProblem) in
                guard entry.capacity > 0 else {
                    throw ConfigProblem("facility \(entry.key): capacity must be a positive number")
                }
                guard keys.insert(entry.key).inserted else {
                    throw ConfigProblem("facility key \(entry.key) appears twice")
                }
                let segments = entry.segments ?? (entry.capacity < 50 ? 8 : 14)
                guard (1...40).contains(segments) else {
                    throw ConfigProblem("facility \(entry.key): segments must be 1 to 40")
                }
                return Facility(
                    key: entry.key, name: entry.name, shortName: entry.shortName ?? entry.name,
                    id: entry.id, capacity: entry.capacity, segments: segments)
            }
        }
        self = settings
    }
}

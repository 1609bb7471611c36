import Configuration
import FoundationEssentials

/// Where occupancy comes from and which facilities to show: defaults (ARCHITECTURE §7), then the config file's
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
    /// The campus profile in use; `nil` for the built-in Virginia Tech (with the `occupancy` section).
    public var campus: String?
    /// One page GET for all facilities, or a fragment POST per facility.
    public var read: CampusProfile.ReadMethod = .fragments
    /// The vendor and its account: Fusion (``endpoint`` or ``page`` as above), or GoBoard or Waitz, whose
    /// one GET for every zone is ``page`` (read `page`, so that `GYMCARD_OCCUPANCY_URL` replaces it).
    public var vendor: CampusVendor = .fusion

    /// Whether percentages over 100 are shown as they are: a GoBoard or Waitz campus counts more people
    /// than its capacity (Purdue's Scifres 31 of 25 is 124 %); a Fusion campus keeps the app's rule, at
    /// most 100.
    public var showsOverCapacity: Bool { vendor != .fusion }

    /// The campus's name as people see it: `vt` for the built-in one.
    public var campusName: String { campus ?? CampusProfile.builtInName }

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
        "facilities": .list(facilityShape),
    ])

    /// The keys of one facility, in the `occupancy` section or a campus profile.
    static let facilityShape = ConfigShape.object([
        "key": .value, "name": .value, "shortName": .value, "id": .value, "capacity": .value,
        "segments": .value,
        "measure": .value, "group": .value,
    ])

    /// The config file: its `occupancy` section, the campus in use and the campus profiles.
    struct File: Decodable {
        var occupancy: Section?
        var campus: String?
        var campuses: [String: CampusSection]?
    }

    /// One profile of the `campuses` section.
    struct CampusSection: Decodable {
        var base: String
        /// `fusion` (also when absent: files from before vendors), `goboard` or `waitz`.
        var vendor: String?
        /// GoBoard's `AccountAPIKey`.
        var key: String?
        /// Waitz's slug.
        var slug: String?
        var read: String?
        var displayType: String?
        var timeZone: String
        var facilities: [FacilityEntry]
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
        var measure: String?
        var group: String?
    }

    /// The campus in use: the config file's `campus`, else Virginia Tech.
    public static func campusInUse(configFile: Data?) -> String {
        let file = configFile.flatMap { try? JSONDecoder().decode(CampusChoice.self, from: $0) }
        return file?.campus ?? CampusProfile.builtInName
    }

    /// Only the `campus` key, so that a damaged profile does not hide which campus is in use.
    private struct CampusChoice: Decodable { var campus: String? }

    /// The names of the campus profiles in the config file, sorted.
    public static func profileNames(configFile: Data?) throws(ConfigProblem) -> [String] {
        guard let configFile else { return [] }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: configFile) } catch {
            throw ConfigProblem(ConfigProblem.describe(error))
        }
        return (file.campuses ?? [:]).keys.sorted()
    }

    /// Applies a config file's `occupancy` section and the environment on top of the defaults.
    ///
    /// - Throws: a message naming what is wrong when the section or the variable is invalid.
    ///
    /// `campus` is the campus asked for (`--campus`); without it, the config file's `campus`, else Virginia
    /// Tech. `GYMCARD_OCCUPANCY_URL` replaces the address read: the fragment endpoint, or the page for a
    /// campus read by page.
    public static func resolve(configFile: Data?, environment: [String: String], campus: String? = nil)
        throws(ConfigProblem) -> OccupancySettings
    {
        var settings = OccupancySettings.virginiaTech
        var file = File()
        if let configFile {
            do { file = try JSONDecoder().decode(File.self, from: configFile) } catch {
                throw ConfigProblem(ConfigProblem.describe(error))
            }
        }
        let chosen = campus ?? file.campus ?? CampusProfile.builtInName
        if chosen == CampusProfile.builtInName {
            if let section = file.occupancy { try settings.apply(section) }
        } else {
            guard let section = file.campuses?[chosen] else {
                throw ConfigProblem(
                    CampusProfile.unknownMessage(chosen, profiles: (file.campuses ?? [:]).keys))
            }
            settings = try profile(named: chosen, section).settings
        }
        if let text = environment["GYMCARD_OCCUPANCY_URL"], !text.isEmpty {
            let url = try ConfigProblem.url(text, environmentVariable: "GYMCARD_OCCUPANCY_URL")
            if settings.read == .page { settings.page = url } else { settings.endpoint = url }
            settings.endpointOrigin = .environment(variable: "GYMCARD_OCCUPANCY_URL")
        }
        return settings
    }

    /// A profile from its section of the config file.
    static func profile(named name: String, _ section: CampusSection) throws(ConfigProblem) -> CampusProfile {
        let path = "campuses.\(name)"
        let base = try ConfigProblem.url(section.base, key: path + ".base")
        let vendor = try vendor(of: section, path: path)
        guard vendor == .fusion else {
            guard section.read == nil, section.displayType == nil else {
                throw ConfigProblem(
                    "\(path) is a \(vendor.vendor.displayName) campus: read and displayType are for Fusion only"
                )
            }
            guard isZoneName(section.timeZone) else {
                throw ConfigProblem("\(path).timeZone is not a time zone name such as America/New_York")
            }
            return CampusProfile(
                name: name, base: base, read: .page, displayType: nil, timeZone: section.timeZone,
                facilities: try facilities(section.facilities, path: path + ".facilities"), vendor: vendor)
        }
        let read: CampusProfile.ReadMethod
        if let text = section.read {
            guard let method = CampusProfile.ReadMethod(rawValue: text) else {
                throw ConfigProblem("\(path).read must be page or fragments, not \(text)")
            }
            read = method
        } else {
            read = .page
        }
        if read == .fragments, section.displayType == nil {
            throw ConfigProblem("\(path) reads fragments but has no displayType; set it, or read: page")
        }
        guard isZoneName(section.timeZone) else {
            throw ConfigProblem("\(path).timeZone is not a time zone name such as America/New_York")
        }
        let facilities = try facilities(section.facilities, path: path + ".facilities")
        return CampusProfile(
            name: name, base: base, read: read, displayType: section.displayType, timeZone: section.timeZone,
            facilities: facilities)
    }

    /// The vendor a profile names, with its key or slug checked.
    static func vendor(of section: CampusSection, path: String) throws(ConfigProblem) -> CampusVendor {
        switch section.vendor {
        case nil, "fusion":
            guard section.key == nil, section.slug == nil else {
                throw ConfigProblem("\(path) has a key or slug but no vendor; set vendor to goboard or waitz")
            }
            return .fusion
        case "goboard":
            guard section.slug == nil else {
                throw ConfigProblem("\(path) is a GoBoard campus: slug is for Waitz")
            }
            guard let text = section.key else {
                throw ConfigProblem("\(path) is a GoBoard campus without its key (the widget's key=<uuid>)")
            }
            guard let key = CampusSource.goboardKey(text) else {
                throw ConfigProblem(
                    "\(path).key is not a GoBoard key (a UUID such as aedeaf92-036d-4848-980b-7eb5526ea40c)")
            }
            return .goboard(key: key)
        case "waitz":
            guard section.key == nil else {
                throw ConfigProblem("\(path) is a Waitz campus: key is for GoBoard")
            }
            guard let slug = section.slug, CampusSource.isWaitzSlug(slug) else {
                throw ConfigProblem("\(path) is a Waitz campus without its slug (https://waitz.io/<slug>)")
            }
            return .waitz(slug: slug)
        case let other?:
            throw ConfigProblem("\(path).vendor must be fusion, goboard or waitz, not \(other)")
        }
    }

    /// An IANA name such as America/New_York: letters, digits, _ + - and / between parts.
    public static func isZoneName(_ zone: String) -> Bool {
        !zone.isEmpty && !zone.hasPrefix("/") && !zone.contains("..")
            && zone.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_+-/".contains($0)) }
    }

    /// Facilities from the config file's entries, checked.
    static func facilities(_ entries: [FacilityEntry], path: String) throws(ConfigProblem) -> [Facility] {
        guard !entries.isEmpty else { throw ConfigProblem("\(path) is empty") }
        var keys = Set<String>()
        return try entries.map { entry throws(ConfigProblem) in
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
            let measure: OccupancyMeasure
            switch entry.measure {
            case nil, "people": measure = .people
            case "percent": measure = .percent
            case let other?:
                throw ConfigProblem("facility \(entry.key): measure must be people or percent, not \(other)")
            }
            var facility = Facility(
                key: entry.key, name: entry.name, shortName: entry.shortName ?? entry.name, id: entry.id,
                capacity: entry.capacity, segments: segments, measure: measure)
            facility.group = entry.group
            return facility
        }
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
            guard Self.isZoneName(zone) else {
                throw ConfigProblem("occupancy.timeZone is not a time zone name such as America/New_York")
            }
            settings.timeZone = zone
        }
        if let entries = section.facilities {
            settings.facilities = try Self.facilities(entries, path: "occupancy.facilities")
        }
        self = settings
    }
}

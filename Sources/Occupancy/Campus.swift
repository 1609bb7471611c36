import Configuration
import FoundationEssentials

/// A campus whose recreation site runs Innosoft Fusion (ARCHITECTURE §12), or whose counts GoBoard or Waitz
/// publish: where its numbers are, how to read them, its time zone and its facilities (a vendor's zones).
/// Virginia Tech is built in (`vt`); others are profiles that `gymcard campus add` writes into the config
/// file's `campuses` section.
public struct CampusProfile: Sendable, Equatable {
    /// How a campus's numbers are fetched.
    public enum ReadMethod: String, Sendable, Equatable, CaseIterable {
        /// One `GET <base>/FacilityOccupancy` for every facility; carries the source's own time.
        case page
        /// One `POST <base>/FacilityOccupancy/GetFacilityData` per facility, with the campus's display type.
        case fragments
    }

    /// The profile's name: `ucsc`.
    public var name: String
    /// The site: `https://campusrec.ucsc.edu`.
    public var base: URL
    /// Page or fragments.
    public var read: ReadMethod
    /// The `occupancyDisplayType` of the fragment POST, when known.
    public var displayType: String?
    /// An IANA time zone name.
    public var timeZone: String
    /// Facilities in the page's order.
    public var facilities: [Facility]
    /// Fusion, or the GoBoard or Waitz account; ``base`` is then the API's (or a test server's) base.
    public var vendor: CampusVendor

    /// Creates a profile.
    public init(
        name: String, base: URL, read: ReadMethod, displayType: String?, timeZone: String,
        facilities: [Facility], vendor: CampusVendor = .fusion
    ) {
        self.vendor = vendor
        self.name = name
        self.base = base
        self.read = read
        self.displayType = displayType
        self.timeZone = timeZone
        self.facilities = facilities
    }

    /// The name of the built-in campus, Virginia Tech.
    public static let builtInName = "vt"

    /// Whether `name` can name a profile: 1–32 of a-z, 0-9 and `-`, starting with a letter.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter, first.isLowercase, name.count <= 32
        else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }

    /// What every command says about a campus name that is neither `vt` nor a profile in the config file.
    public static func unknownMessage(_ name: String, profiles: some Sequence<String>) -> String {
        let known = [builtInName] + profiles.sorted()
        return
            "there is no campus \(name); known: \(known.joined(separator: ", ")) (add one with gymcard campus add <url>)"
    }

    /// `<base>/FacilityOccupancy`.
    public static func pageURL(base: URL) -> URL { base.appending(path: "FacilityOccupancy") }

    /// Where the profile's numbers come from.
    public var source: CampusSource { CampusSource(vendor: vendor, base: base) }

    /// The occupancy settings the profile makes.
    public var settings: OccupancySettings {
        guard vendor == .fusion else {
            // One GET for every zone: the page, so that GYMCARD_OCCUPANCY_URL replaces it.
            let url = source.requestURL
            var settings = OccupancySettings(
                endpoint: url, page: url, displayType: "", facilities: facilities, timeZone: timeZone)
            settings.campus = name
            settings.read = .page
            settings.vendor = vendor
            settings.endpointOrigin = .configFile(key: "campuses.\(name).base")
            return settings
        }
        var settings = OccupancySettings(
            endpoint: Self.pageURL(base: base).appending(path: "GetFacilityData"),
            page: Self.pageURL(base: base),
            displayType: displayType ?? "", facilities: facilities, timeZone: timeZone)
        settings.campus = name
        settings.read = read
        settings.endpointOrigin = .configFile(key: "campuses.\(name).base")
        return settings
    }

    /// The profile as the config file keeps it.
    public var document: JSONDocument {
        var members: [(key: String, value: JSONDocument)] = []
        switch vendor {
        case .fusion:
            members = [("base", .string(base.absoluteString)), ("read", .string(read.rawValue))]
            if let displayType { members.append(("displayType", .string(displayType))) }
        case .goboard(let key):
            members = [
                ("vendor", .string("goboard")), ("key", .string(key)), ("base", .string(base.absoluteString)),
            ]
        case .waitz(let slug):
            members = [
                ("vendor", .string("waitz")), ("slug", .string(slug)), ("base", .string(base.absoluteString)),
            ]
        }
        members.append(("timeZone", .string(timeZone)))
        members.append(
            (
                "facilities",
                .array(
                    facilities.map { facility in
                        var entry: [(key: String, value: JSONDocument)] = [
                            ("key", .string(facility.key)), ("name", .string(facility.name)),
                            ("shortName", .string(facility.shortName)), ("id", .string(facility.id)),
                            ("capacity", .number(facility.capacity)),
                        ]
                        if facility.measure == .percent { entry.append(("measure", .string("percent"))) }
                        if let group = facility.group { entry.append(("group", .string(group))) }
                        return .object(entry)
                    })
            ))
        return .object(members)
    }

    /// The keys of one profile in the config file's `campuses` section.
    public static let configShape = ConfigShape.object([
        "base": .value, "vendor": .value, "key": .value, "slug": .value, "read": .value,
        "displayType": .value,
        "timeZone": .value,
        "facilities": .list(OccupancySettings.facilityShape),
        // The same shape as the top-level `hours` section's facilities (weekly hours and exceptions).
        "hours": .map(.object(["weekly": .map(.value), "exceptions": .map(.value)])),
    ])
}

/// Campuses on Innosoft Fusion that ARCHITECTURE §12 lists: a name to suggest, the time zone, and the display
/// type of the fragment POST where one was seen.
public struct KnownCampus: Sendable, Equatable {
    /// The site's host.
    public var host: String
    /// A short profile name.
    public var name: String
    /// The school.
    public var school: String
    /// Its time zone.
    public var timeZone: String
    /// The `occupancyDisplayType` seen for its fragment POST.
    public var displayType: String?
    /// Fusion, or the GoBoard key or Waitz slug of a campus built in by name (`campus add purdue`).
    public var vendor: CampusVendor = .fusion
    /// Where the campus itself publishes its key or slug (a vendor campus built in by name).
    public var publishedAt: String?

    /// The campuses ARCHITECTURE §12 names.
    public static let all: [KnownCampus] = [
        KnownCampus(
            host: "connect.recsports.vt.edu", name: "vt", school: "Virginia Tech",
            timeZone: "America/New_York",
            displayType: "00000000-0000-0000-0000-000000004490"),
        KnownCampus(
            host: "campusrec.ucsc.edu", name: "ucsc", school: "UC Santa Cruz", timeZone: "America/Los_Angeles"
        ),
        KnownCampus(host: "recwell.rit.edu", name: "rit", school: "RIT", timeZone: "America/New_York"),
        KnownCampus(host: "recreation.rit.edu", name: "rit", school: "RIT", timeZone: "America/New_York"),
        KnownCampus(
            host: "warrior.uwaterloo.ca", name: "waterloo", school: "University of Waterloo",
            timeZone: "America/Toronto", displayType: "00000000-0000-0000-0000-000000004488"),
        KnownCampus(
            host: "macreconline.ca", name: "mcmaster", school: "McMaster University",
            timeZone: "America/Toronto",
            displayType: "00000000-0000-0000-0000-000000004488"),
        KnownCampus(
            host: "recshop.ohio.edu", name: "ohio", school: "Ohio University", timeZone: "America/New_York",
            displayType: "00000000-0000-0000-0000-000000004489"),
        KnownCampus(
            host: "rec.ucdavis.edu", name: "ucdavis", school: "UC Davis", timeZone: "America/Los_Angeles"),
        KnownCampus(
            host: "recportal.torontomu.ca", name: "tmu", school: "Toronto Metropolitan University",
            timeZone: "America/Toronto"),
        KnownCampus(
            host: "bewell.ese.syr.edu", name: "syracuse", school: "Syracuse University",
            timeZone: "America/New_York"),
        KnownCampus(
            host: "www.go.recsports.virginia.edu", name: "uva", school: "University of Virginia",
            timeZone: "America/New_York"),
        KnownCampus(
            host: "myrec.recreation.duke.edu", name: "duke", school: "Duke University",
            timeZone: "America/New_York"),
    ]

    /// Campuses whose GoBoard key or Waitz slug their own public page publishes, built in by name
    /// (`campus add purdue`); SHAPES.md §1 in the workspace names the clients that found each key there. A
    /// key or slug seen only in a client's code (UCLA, Pitt, UCSD's `ucsd-rec`) is not built in.
    public static let vendorCampuses: [KnownCampus] = [
        KnownCampus(
            host: "goboardapi.azurewebsites.net", name: "purdue", school: "Purdue University",
            timeZone: "America/Indiana/Indianapolis", displayType: nil,
            vendor: .goboard(key: "aedeaf92-036d-4848-980b-7eb5526ea40c"),
            publishedAt: "https://www.purdue.edu/recwell/facility-usage/"),
        KnownCampus(
            host: "goboardapi.azurewebsites.net", name: "uw-madison",
            school: "University of Wisconsin–Madison",
            timeZone: "America/Chicago", displayType: nil,
            vendor: .goboard(key: "7938fc89-a15c-492d-9566-12c961bc1f27"),
            publishedAt: "https://recwell.wisc.edu/locations/nick/"),
    ]

    /// The vendor campus built in as `name`.
    public static func named(_ name: String) -> KnownCampus? {
        vendorCampuses.first { $0.name == name.lowercased() }
    }

    /// The vendor campus built in with this key or slug.
    public static func account(_ vendor: CampusVendor) -> KnownCampus? {
        guard vendor != .fusion else { return nil }
        return vendorCampuses.first { $0.vendor == vendor }
    }

    /// The known campus at `url`'s host.
    public static func at(_ url: URL) -> KnownCampus? {
        guard let host = url.host?.lowercased() else { return nil }
        return all.first { $0.host == host || "www." + $0.host == host || $0.host == "www." + host }
    }
}

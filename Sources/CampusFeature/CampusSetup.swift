import Configuration
import Fetching
import FoundationEssentials
import Glibc
import GymcardCore
import JSONOutput
import Occupancy
import Storage
import TextSearch

/// Setting up other Innosoft Fusion campuses (`campus add|list|use|remove`): reading a campus's page,
/// naming the profile and its facilities, guessing and checking its zone, and keeping the profiles in
/// the config file's `campuses` section (everything else in the file kept as it was).
public struct CampusSetup: Sendable {
    /// The process context (config file, tzdata, environment).
    public let context: Context

    /// Setup in `context`.
    public init(context: Context) { self.context = context }

    /// What `campus add` asks for.
    public struct Request: Sendable {
        /// The site or its occupancy page, as typed.
        public var url: String
        /// The profile's name (`nil`: from the site).
        public var name: String?
        /// The zone (`nil`: asked or guessed by the caller, with ``CampusZone``).
        public var timeZone: String?
        /// How numbers are read (`nil`: page).
        public var read: CampusProfile.ReadMethod?
        /// The fragment POST's display type (`nil`: the known campus's, if any).
        public var displayType: String?
        /// The vendor, where the address cannot say it (a test server); `nil`: recognized from it.
        public var vendor: OccupancyVendor?

        /// Creates a request.
        public init(
            url: String, name: String? = nil, timeZone: String? = nil, read: CampusProfile.ReadMethod? = nil,
            displayType: String? = nil, vendor: OccupancyVendor? = nil
        ) {
            (self.url, self.name, self.timeZone, self.read, self.displayType, self.vendor) = (
                url, name, timeZone, read, displayType, vendor
            )
        }
    }

    /// What was checked before the page is read: the base, the name, the known campus and the method.
    public struct Plan: Sendable {
        /// The site without `/FacilityOccupancy`; for GoBoard and Waitz, the API's (or a test server's) base.
        public var base: URL
        /// Fusion, or the GoBoard key or Waitz slug.
        public var vendor: CampusVendor = .fusion
        /// The profile's name.
        public var name: String
        /// The campus when gymcard knows it.
        public var known: KnownCampus?
        /// How numbers are read.
        public var read: CampusProfile.ReadMethod
        /// The display type, when known.
        public var displayType: String?
        /// The occupancy page; for GoBoard and Waitz, the one URL that lists every zone.
        public var page: URL { CampusSource(vendor: vendor, base: base).requestURL }
    }

    /// Checks a request without the network: a web address (or the name of a campus built in, such as
    /// `purdue`), a free name, a known zone, a display type for `--read fragments`.
    public func plan(_ request: Request) throws -> Plan {
        let builtIn = KnownCampus.named(request.url)
        let source: CampusSource
        if let builtIn, request.vendor == nil || request.vendor == builtIn.vendor.vendor {
            source = CampusSource(vendor: builtIn.vendor, base: CampusSource.goboardAPI)
        } else {
            do { source = try CampusSource.recognize(request.url, vendor: request.vendor) } catch {
                // Not an address at all: the same words and advice as before vendors.
                if case .notAWebAddress(let text) = error { throw CampusSetupProblem.notAWebAddress(text) }
                throw error
            }
        }
        let base = source.base
        let known = source.vendor == .fusion ? KnownCampus.at(base) : KnownCampus.account(source.vendor)
        let name = request.name ?? known?.name ?? Self.name(for: source)
        guard name != CampusProfile.builtInName else { throw CampusSetupProblem.builtIn }
        if try document()["campuses"]?[name] != nil { throw CampusSetupProblem.nameTaken(name) }
        if let zone = request.timeZone { try CampusZone(context: context).check(zone) }
        guard source.vendor == .fusion else {
            if request.read != nil || request.displayType != nil {
                throw CampusSetupProblem.fusionOnlyOption(source.vendor.vendor)
            }
            return Plan(
                base: base, vendor: source.vendor, name: name, known: known, read: .page, displayType: nil)
        }
        let read = request.read ?? .page
        let display = request.displayType ?? known?.displayType
        if read == .fragments, display == nil { throw CampusSetupProblem.fragmentsNeedDisplayType }
        return Plan(base: base, name: name, known: known, read: read, displayType: display)
    }

    /// A profile name for a campus nobody named: a Fusion site's (`ucsc`), a Waitz slug (`ucsd-rec`), or
    /// `goboard` (a key says nothing of its campus).
    static func name(for source: CampusSource) -> String {
        switch source.vendor {
        case .fusion: return CampusPage.name(from: source.base)
        case .goboard: return "goboard"
        case .waitz(let slug):
            let cleaned = String(
                slug.lowercased().map { $0 == "_" ? "-" : $0 }.filter {
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")
                }
                .prefix(32))
            return CampusProfile.isValidName(cleaned) && cleaned != CampusProfile.builtInName
                ? cleaned : "waitz"
        }
    }

    /// `campus add`: reads the plan's occupancy page (a vendor's list of zones), keeps the campus in the
    /// zone `zone` gives for it (asked or guessed), and returns the table of the facilities found and the
    /// notes about them.
    ///
    /// - Throws: ``CampusPageProblem`` when the page gives no facilities (nothing is added then); what
    ///   writing the config file throws.
    public func add(_ plan: Plan, fetcher: Fetcher, zone: (Plan) -> String) async throws -> (
        table: String, notes: [String]
    ) {
        let found =
            plan.vendor == .fusion
            ? try await CampusPage.discover(plan.page, fetcher: fetcher)
            : try await CampusPage.zones(plan.vendor, at: plan.page, fetcher: fetcher)
        let profile = try add(plan, found: found, timeZone: zone(plan))
        return (CampusSetup.table(profile, found: found), notes(plan, found: found))
    }

    /// The profile for what the page showed, and writes it to the config file.
    @discardableResult
    public func add(_ plan: Plan, found: [DiscoveredFacility], timeZone: String) throws
        -> CampusProfile
    {
        let profile = CampusProfile(
            name: plan.name, base: plan.base, read: plan.read, displayType: plan.displayType,
            timeZone: timeZone, facilities: CampusPage.facilities(found), vendor: plan.vendor)
        var document = try document()
        var campuses = document["campuses"] ?? .object([])
        campuses.set(plan.name, to: profile.document)
        document.set("campuses", to: campuses)
        try save(document)
        return profile
    }

    /// What the person should fill in after adding: a head count without a capacity (100 assumed), cards
    /// without a heading; one line each, naming the config file's key.
    public func notes(_ plan: Plan, found: [DiscoveredFacility]) -> [String] {
        let path = context.config.path
        if plan.vendor != .fusion {
            // Each refresh reads the count and capacity the vendor gives then; the profile's capacity is
            // only what a zone without a reading is shown out of.
            let missing = found.filter { $0.capacity == nil }.map(\.name)
            let capacity =
                plan.vendor.vendor == .goboard
                ? "capacities are GoBoard's live TotalCapacity, read again at every refresh"
                : "capacities are Waitz's live capacity, read again at every refresh"
            return [
                capacity
                    + (missing.isEmpty
                        ? ""
                        : "; no figure now for \(missing.joined(separator: ", ")) (no count or capacity 0)")
            ]
        }
        var notes = found.indices.filter { found[$0].measure == .people && found[$0].capacity == nil }.map {
            "\(found[$0].name): the page gives no capacity; 100 is assumed; set the right one as "
                + "campuses.\(plan.name).facilities[\($0)].capacity in \(path)"
        }
        let unnamed = found.indices.filter { found[$0].name == DiscoveredFacility.unnamed }
        if let first = unnamed.first {
            notes.append(
                "\(unnamed.count) of \(found.count) cards have no heading; name them as "
                    + "campuses.\(plan.name).facilities[\(first)].name (and so on) in \(path)")
        }
        return notes
    }

    /// One campus as `campus list` shows it.
    public struct Listing: Sendable, Encodable {
        /// The profile's name (`vt` built in).
        public var name: String
        /// The site (the occupancy page without `/FacilityOccupancy`).
        public var site: String
        /// Facility keys.
        public var facilities: [String]
        /// The facilities' zone.
        public var timeZone: String
        /// How numbers are read.
        public var read: String
        /// Whether it is the campus in use.
        public var inUse: Bool
        /// `fusion`, `goboard` or `waitz`.
        public var vendor: String
        /// The GoBoard key or Waitz slug (published by the campus; `nil` for Fusion).
        @ExplicitNull public var account: String?
        /// Short names, for the table.
        public var shortNames: [String] = []

        private enum CodingKeys: String, CodingKey {
            case name, site, facilities, timeZone, read, inUse, vendor, account
        }
    }

    /// Every campus (the built-in one first), from one read of the file, and the campus in use when it
    /// is not one of them (a name left in the file by hand).
    public func listings() throws -> (campuses: [Listing], strayInUse: String?) {
        let (inUse, campuses) = try list()
        let listings = campuses.map {
            Listing(
                name: $0.campusName, site: CampusPage.site(of: $0.page), facilities: $0.facilities.map(\.key),
                timeZone: $0.timeZone, read: $0.read.rawValue, inUse: $0.campusName == inUse,
                vendor: $0.vendor.vendor.rawValue, account: $0.vendor.account,
                shortNames: $0.facilities.map(\.shortName))
        }
        return (listings, listings.contains(where: \.inUse) ? nil : inUse)
    }

    /// Makes `name` the campus in use (`vt`: the built-in one).
    public func use(_ name: String) throws {
        var document = try document()
        try requireKnown(name, in: document)
        document.set("campus", to: name == CampusProfile.builtInName ? nil : .string(name))
        try save(document)
    }

    /// Removes a profile; returns whether it was in use (the built-in campus is then used again) and
    /// its readings' folder when there is one (kept: the history is the person's).
    public func remove(_ name: String) throws -> (wasInUse: Bool, keptFolder: String?) {
        guard name != CampusProfile.builtInName else { throw CampusSetupProblem.removingBuiltIn }
        var document = try document()
        try requireKnown(name, in: document)
        var campuses = document["campuses"] ?? .object([])
        campuses.set(name, to: nil)
        document.set("campuses", to: campuses == .object([]) ? nil : campuses)
        let wasInUse = document["campus"] == .string(name)
        if wasInUse { document.set("campus", to: nil) }
        try save(document)
        let folder = OccupancyStateFile.folder(context.directories, campus: name)
        return (wasInUse, access(folder, F_OK) == 0 ? folder : nil)
    }

    /// The campus in use and every campus's settings (the built-in one first), from one read of the file.
    func list() throws -> (inUse: String, campuses: [OccupancySettings]) {
        let file = try context.config.read()
        do throws(ConfigProblem) {
            let names = try [CampusProfile.builtInName] + OccupancySettings.profileNames(configFile: file)
            let campuses = try names.map { name throws(ConfigProblem) in
                try OccupancySettings.resolve(configFile: file, environment: [:], campus: name)
            }
            return (OccupancySettings.campusInUse(configFile: file), campuses)
        } catch { throw context.config.problem(error) }
    }

    /// The occupancy settings of `campus` (`nil`: the one in use); a name that is not a profile is
    /// ``CampusSetupProblem/unknownCampus(_:profiles:)``.
    public func settings(campus: String?) throws -> OccupancySettings {
        if let campus, campus != CampusProfile.builtInName {
            let file = try context.config.read()
            let names: [String]
            do throws(ConfigProblem) { names = try OccupancySettings.profileNames(configFile: file) } catch {
                throw context.config.problem(error)
            }
            guard names.contains(campus) else {
                throw CampusSetupProblem.unknownCampus(campus, profiles: names)
            }
        }
        return try context.config.occupancySettings(campus: campus)
    }

    /// The config file as a document (an empty object when there is none); an invalid file fails as
    /// it does everywhere (``ConfigFileProblem``).
    func document() throws -> JSONDocument {
        guard let bytes = try context.config.read() else { return .object([]) }
        guard let document = JSONDocument.parse(Array(bytes)), case .object = document else {
            throw CampusSetupProblem.configNotAnObject(path: context.config.path)
        }
        return document
    }

    /// Writes the document back in one step: the file's mode and a symbolic link to it are kept.
    func save(_ document: JSONDocument) throws(CampusSetupProblem) {
        let path = context.config.path
        do {
            try Directory.create(AtomicFile.directory(of: path), permissions: 0o700)
            try UserFile.write(Array(document.text.utf8), to: path)
        } catch { throw .cannotWrite(path: path, reason: "\(error)") }
    }

    private func requireKnown(_ name: String, in document: JSONDocument) throws(CampusSetupProblem) {
        guard name != CampusProfile.builtInName, document["campuses"]?[name] == nil else { return }
        var profiles: [String] = []
        if case .object(let members)? = document["campuses"] { profiles = members.map(\.key) }
        throw .unknownCampus(name, profiles: profiles)
    }
}

/// Why campus setup stopped; the CLI adds the advice and the exit status.
public enum CampusSetupProblem: Error, Equatable, CustomStringConvertible {
    /// Not an http(s) address with a host.
    case notAWebAddress(String)
    /// The name is the built-in campus's.
    case builtIn
    /// A profile of this name exists.
    case nameTaken(String)
    /// tzdata has no zone of this name (the directory looked in).
    case unknownZone(String, directory: String)
    /// `read fragments` without a display type.
    case fragmentsNeedDisplayType
    /// `--read` or `--display-type` for a GoBoard or Waitz campus.
    case fusionOnlyOption(OccupancyVendor)
    /// No profile of this name (the known ones).
    case unknownCampus(String, profiles: [String])
    /// The built-in campus cannot be removed.
    case removingBuiltIn
    /// The config file is not a JSON object (or cannot be read).
    case configNotAnObject(path: String)
    /// The config file cannot be written.
    case cannotWrite(path: String, reason: String)

    /// The problem in words.
    public var description: String {
        switch self {
        case .notAWebAddress(let text): "\(text) is not a web address"
        case .builtIn: "Virginia Tech is built in (vt); nothing to add"
        case .nameTaken(let name): "there is already a campus \(name)"
        case .unknownZone(let zone, _): "\(zone) is not a time zone known here"
        case .fragmentsNeedDisplayType: "reading fragments needs the campus's display type"
        case .fusionOnlyOption(let vendor):
            "a \(vendor.displayName) campus is read with one GET of every zone"
        case .unknownCampus(let name, let profiles): CampusProfile.unknownMessage(name, profiles: profiles)
        case .removingBuiltIn: "vt is built in and cannot be removed"
        case .configNotAnObject(let path): "\(path): cannot be edited (not a JSON object)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}

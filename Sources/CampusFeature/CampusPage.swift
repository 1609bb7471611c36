import Fetching
import FoundationEssentials
import Glibc
import GymcardCore
import Occupancy
import Storage
import TextSearch

/// A campus's full occupancy page, read for `campus add` and `facilities --discover` (with the one card
/// reader `occupancy` uses, ``FusionCard``), and what a new profile makes of it: its base address, a
/// name, facility keys.
public enum CampusPage {
    /// The facility cards on `page`; a page that is not the occupancy page fails with what it is.
    public static func discover(_ page: URL, fetcher: Fetcher) async throws(CampusPageProblem)
        -> [DiscoveredFacility]
    {
        let text: String
        do {
            let response = try await fetcher.fetch(
                .get(page, accept: ExpectedContent.htmlPage.acceptHeader), expecting: .htmlPage)
            text = String(decoding: response.body, as: UTF8.self)
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .unreadable(page: page.absoluteString, reason: "\(error)")
        }
        if let problem = FusionPage.pageProblem(text) {
            throw .notThePage(page: page.absoluteString, problem)
        }
        let found = FacilityDiscovery.parse(text)
        guard !found.isEmpty else {
            throw .noCards(page: page.absoluteString, FusionPage.emptyPageProblem(text))
        }
        return found
    }

    /// Every zone a GoBoard or Waitz campus lists at `url` (its one GET), as `campus add` and `facilities
    /// --discover` list a Fusion page's cards, with each zone's building (GoBoard's `FacilityName`).
    public static func zones(_ vendor: CampusVendor, at url: URL, fetcher: Fetcher)
        async throws(CampusPageProblem)
        -> [DiscoveredFacility]
    {
        do {
            // Only the zones are listed, not their times: the zone they are read in does not matter.
            return try await VendorFeed.zones(vendor, at: url, fetcher: fetcher, zone: .fixed(hours: 0)).map(
                \.discovered)
        } catch .cancelled {
            throw .cancelled
        } catch .unexpectedContent(_, let detail) {
            throw .noZones(
                page: CampusSource.withoutQuery(url.absoluteString), vendor: vendor.vendor, reason: detail)
        } catch {
            throw .unreadable(page: CampusSource.withoutQuery(url.absoluteString), reason: "\(error)")
        }
    }

    /// `https://campusrec.ucsc.edu/FacilityOccupancy/` → `https://campusrec.ucsc.edu`.
    public static func base(of text: String) throws(CampusSetupProblem) -> URL {
        var trimmed = text.trimmed
        if !trimmed.contains("://") { trimmed = "https://" + trimmed }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
        else { throw .notAWebAddress(text) }
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.lowercased().hasSuffix("/facilityoccupancy") { path.removeLast("/facilityoccupancy".count) }
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = url.port
        components.path = path
        guard let base = components.url else { throw .notAWebAddress(text) }
        return base
    }

    /// A line for each configured facility whose ID is not on the page, naming where its new ID goes.
    public static func missing(
        from found: [DiscoveredFacility], settings: OccupancySettings, configPath: String
    )
        -> [String]
    {
        let onPage = Set(found.map(\.id))
        let section = settings.campus.map { "campuses.\($0).facilities" } ?? "occupancy.facilities"
        return settings.facilities.filter { !onPage.contains($0.id.lowercased()) }.map {
            "\($0.key) (\($0.id)) is not on the page; set its new ID under \(section) in \(configPath)"
        }
    }

    /// `https://campusrec.ucsc.edu` for its occupancy page (the page without `/FacilityOccupancy`).
    public static func site(of page: URL) -> String {
        var text = page.absoluteString
        if text.lowercased().hasSuffix("/facilityoccupancy") { text.removeLast("/facilityoccupancy".count) }
        return text
    }

    /// A name from the site: `bewell.ese.syr.edu` → `syr`, `recportal.torontomu.ca` → `torontomu`.
    public static func name(from base: URL) -> String {
        let labels = (base.host ?? "campus").lowercased().split(separator: ".").map(String.init)
        let candidate = labels.count >= 2 ? labels[labels.count - 2] : labels.first ?? "campus"
        let cleaned = String(
            candidate.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(32))
        return CampusProfile.isValidName(cleaned) && cleaned != CampusProfile.builtInName ? cleaned : "campus"
    }

    /// Profile facilities: keys from the names, capacity from the page (100 for a percent-only card, or a
    /// head count without one: said by the caller), a vendor zone's group (its building).
    public static func facilities(_ found: [DiscoveredFacility]) -> [Facility] {
        var keys = Set<String>()
        let firstWords = found.map { String($0.name.split(separator: " ").first ?? "") }
        return found.enumerated().map { index, facility in
            var key = slug(facility.name)
            if key.isEmpty { key = "facility-\(index + 1)" }
            var unique = key
            var suffix = 2
            while !keys.insert(unique).inserted {
                unique = "\(key)-\(suffix)"
                suffix += 1
            }
            let word = firstWords[index]
            let shortName =
                word.count <= 10 && firstWords.filter({ $0 == word }).count == 1 && !word.isEmpty
                ? word : facility.name
            let capacity = facility.capacity ?? 100
            var made = Facility(
                key: unique, name: facility.name, shortName: shortName, id: facility.id,
                capacity: max(1, capacity), segments: capacity < 50 ? 8 : 14, measure: facility.measure)
            made.group = facility.group
            return made
        }
    }

    /// `Fitness Center` → `fitness-center`.
    static func slug(_ name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}

/// Why a campus's page gave no facilities; the CLI adds the exit status.
public enum CampusPageProblem: Error, Equatable, CustomStringConvertible {
    /// Interrupted (Ctrl-C).
    case cancelled
    /// The page could not be fetched.
    case unreadable(page: String, reason: String)
    /// A waiting room or a sign-in page in its place.
    case notThePage(page: String, OccupancyPageProblem)
    /// A page without facility cards, and what it seems to be.
    case noCards(page: String, OccupancyPageProblem)
    /// A GoBoard or Waitz answer that lists no zones (HTML, not JSON, an empty list: an unknown key or slug).
    case noZones(page: String, vendor: OccupancyVendor, reason: String)

    /// The problem in words.
    public var description: String {
        switch self {
        case .cancelled: "interrupted"
        case .unreadable(let page, let reason): "cannot read \(page): \(reason)"
        case .notThePage(let page, let problem): "\(page): \(problem)"
        case .noCards(let page, let problem):
            "\(page) is not an Innosoft Fusion occupancy page: \(problem) (no facility cards)"
        case .noZones(let page, let vendor, let reason):
            "\(page) lists no \(vendor.displayName) zones: it answered \(reason)"
        }
    }
}

/// A campus's time zone: checked against tzdata, or guessed (the known campus's, else from the site's
/// country and this machine's zone).
public struct CampusZone: Sendable {
    /// The context (environment, tzdata).
    public let context: Context

    /// Zones in `context`.
    public init(context: Context) { self.context = context }

    /// A zone name tzdata here knows, else ``CampusSetupProblem/unknownZone(_:directory:)``.
    public func check(_ zone: String) throws(CampusSetupProblem) {
        guard OccupancySettings.isZoneName(zone), context.hasZone(zone) else {
            throw .unknownZone(zone, directory: context.zoneDirectory)
        }
    }

    /// A suggestion and why.
    public func guess(known: KnownCampus?, base: URL) -> (zone: String, reason: String) {
        if let known { return (known.timeZone, "\(known.school)'s time zone") }
        let local = machineZone()
        let host = base.host?.lowercased() ?? ""
        if host.hasSuffix(".ca") {
            return local.hasPrefix("America/") && Self.canadian.contains(local)
                ? (local, "this machine's zone, for a Canadian site")
                : ("America/Toronto", "guessed from the site's country, Canada")
        }
        if host.hasSuffix(".edu") || host.hasSuffix(".us") {
            return local.hasPrefix("America/") && !Self.canadian.contains(local)
                ? (local, "this machine's zone, for a US site")
                : ("America/New_York", "guessed from the site's country, the US")
        }
        return (local, "this machine's zone")
    }

    private static let canadian: Set<String> = [
        "America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Halifax",
        "America/St_Johns", "America/Regina", "America/Montreal",
    ]

    /// This machine's zone: `TZ` (maybe written `:Europe/Berlin`), `/etc/timezone`, or where
    /// `/etc/localtime` points; else UTC.
    func machineZone() -> String {
        if let value = context.environment["TZ"] {
            let zone = value.hasPrefix(":") ? String(value.dropFirst()) : value
            if OccupancySettings.isZoneName(zone) { return zone }
        }
        if let bytes = try? FileContents.read("/etc/timezone", limitBytes: 256) {
            let zone = String(decoding: bytes, as: UTF8.self).trimmed
            if OccupancySettings.isZoneName(zone) { return zone }
        }
        var buffer = [CChar](repeating: 0, count: 512)
        let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
        if length > 0 {
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let range = target.range(ignoringCaseOf: "zoneinfo/") {
                return String(target[range.upperBound...])
            }
        }
        return "UTC"
    }
}

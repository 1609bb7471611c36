import FoundationEssentials
import TextSearch

/// The platform a campus publishes its counts through.
public enum OccupancyVendor: String, Sendable, Equatable, CaseIterable {
    /// Innosoft Fusion: an HTML occupancy page (or a fragment per facility) on the campus's own site.
    case fusion
    /// Connect2Concepts GoBoard: one JSON list of every zone of an account (`AccountAPIKey`).
    case goboard
    /// Waitz: one JSON document of every location of a campus (its slug).
    case waitz

    /// The vendor's name as people know it.
    public var displayName: String {
        switch self {
        case .fusion: "Innosoft Fusion"
        case .goboard: "Connect2Concepts GoBoard"
        case .waitz: "Waitz"
        }
    }
}

/// Which account of its vendor a campus is: nothing more for Fusion (its site says it all), the
/// `AccountAPIKey` for GoBoard, the slug for Waitz.
public enum CampusVendor: Sendable, Equatable {
    /// An Innosoft Fusion site.
    case fusion
    /// A GoBoard account: its `AccountAPIKey`, a UUID kept in lower case.
    case goboard(key: String)
    /// A Waitz campus: its slug (`ucsd-rec`).
    case waitz(slug: String)

    /// The vendor.
    public var vendor: OccupancyVendor {
        switch self {
        case .fusion: .fusion
        case .goboard: .goboard
        case .waitz: .waitz
        }
    }

    /// The key or slug; `nil` for Fusion.
    public var account: String? {
        switch self {
        case .fusion: nil
        case .goboard(let key): key
        case .waitz(let slug): slug
        }
    }
}

/// Where a campus's numbers come from: its vendor and account, and the base address requests go to (the
/// Fusion site; GoBoard's API or Waitz's site, or a test server that answers the same paths).
public struct CampusSource: Sendable, Equatable {
    /// The vendor and account.
    public var vendor: CampusVendor
    /// Fusion: the site without `/FacilityOccupancy`; GoBoard: `https://goboardapi.azurewebsites.net`;
    /// Waitz: `https://waitz.io`.
    public var base: URL

    /// Creates a source.
    public init(vendor: CampusVendor, base: URL) {
        self.vendor = vendor
        self.base = base
    }

    // Literal URLs that parse.
    // swift-format-ignore: NeverForceUnwrap
    /// GoBoard's API, which every client in SHAPES.md calls (the widget's key is the same UUID).
    public static let goboardAPI = URL(string: "https://goboardapi.azurewebsites.net")!

    // swift-format-ignore: NeverForceUnwrap
    /// Waitz's site, which serves `/live/<slug>`.
    public static let waitzSite = URL(string: "https://waitz.io")!

    /// The one URL a refresh fetches: GoBoard's `<base>/api/FacilityCount/GetCountsByAccount?AccountAPIKey=<key>`
    /// (every zone of the account in one answer), Waitz's `<base>/live/<slug>`, Fusion's
    /// `<base>/FacilityOccupancy` (the full page).
    public var requestURL: URL {
        switch vendor {
        case .fusion:
            return CampusProfile.pageURL(base: base)
        case .goboard(let key):
            var components =
                URLComponents(
                    url: base.appending(path: "api/FacilityCount/GetCountsByAccount"),
                    resolvingAgainstBaseURL: false) ?? URLComponents()
            // A key is hex digits and dashes (checked when it was recognized): nothing to escape.
            components.percentEncodedQuery = "AccountAPIKey=" + key
            return components.url ?? base
        case .waitz(let slug):
            return base.appending(path: "live").appending(path: slug)
        }
    }

    /// Recognizes what a person pasted: a GoBoard widget URL (`…/Widgets/Data/locationCount?…key=<uuid>…`
    /// on connect2mycloud.com, or connect2concepts.com's older `?type=circle&key=<uuid>`), a GoBoard API URL
    /// (`…/GetCountsByAccount?AccountAPIKey=<uuid>`), a Waitz page or live URL (`waitz.io/<slug>`,
    /// `waitz.io/live/<slug>`); anything else is a Fusion site, as before vendors. `vendor` says it where
    /// the address cannot (a test server on 127.0.0.1); it must not contradict an address that can.
    ///
    /// A GoBoard widget on Connect2Concepts' own hosts is read through GoBoard's API; the same paths on
    /// another host are read from that host (a test server serving both).
    public static func recognize(_ text: String, vendor asked: OccupancyVendor? = nil)
        throws(CampusSourceProblem) -> CampusSource
    {
        let url = try webAddress(text)
        let host = (url.host ?? "").lowercased()
        let path = url.path
        let lowerPath = path.lowercased()
        let recognized: OccupancyVendor?
        if isConnect2ConceptsHost(host) || host == "goboardapi.azurewebsites.net"
            || lowerPath.hasSuffix("/getcountsbyaccount") || lowerPath.contains("/widgets/data/locationcount")
        {
            recognized = .goboard
        } else if host == "waitz.io" || host == "www.waitz.io" {
            recognized = .waitz
        } else {
            recognized = nil
        }
        if let asked, let recognized, asked != recognized {
            throw .vendorMismatch(address: withoutQuery(text), recognized: recognized, asked: asked)
        }
        switch asked ?? recognized ?? .fusion {
        case .fusion:
            return CampusSource(vendor: .fusion, base: try fusionBase(of: url, text: text))
        case .goboard:
            let parameter = queryValue(url, named: "accountapikey") ?? queryValue(url, named: "key")
            guard let parameter else { throw .noKey(address: text) }
            guard let key = goboardKey(parameter) else { throw .notAKey(parameter) }
            let base: URL
            if isConnect2ConceptsHost(host) || host == "goboardapi.azurewebsites.net" {
                base = goboardAPI
            } else {
                var prefix = path
                for suffix in ["/api/facilitycount/getcountsbyaccount", "/widgets/data/locationcount"] {
                    if let found = prefix.range(ignoringCaseOf: suffix) {
                        prefix = String(prefix[..<found.lowerBound])
                        break
                    }
                }
                base = try origin(of: url, path: prefix, text: text)
            }
            return CampusSource(vendor: .goboard(key: key), base: base)
        case .waitz:
            var parts = path.split(separator: "/").map(String.init)
            guard let slug = parts.popLast(), isWaitzSlug(slug),
                !["live", "compare"].contains(slug.lowercased())
            else { throw .noSlug(address: text) }
            if let last = parts.last, ["live", "compare"].contains(last.lowercased()) { parts.removeLast() }
            let base =
                host == "waitz.io" || host == "www.waitz.io"
                ? waitzSite : try origin(of: url, path: parts.map { "/" + $0 }.joined(), text: text)
            return CampusSource(vendor: .waitz(slug: slug), base: base)
        }
    }

    /// An address without its query: a GoBoard key is printed only where the person asks for it (`campus
    /// list`, `doctor`), not in a message about the address.
    public static func withoutQuery(_ text: String) -> String {
        text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? text
    }

    /// `AEDEAF92-036d-…` → `aedeaf92-036d-…`: a UUID (8-4-4-4-12 hex digits) in lower case, else `nil`.
    /// Clients send the key in either case (SHAPES.md §1); lower case is what KV and JE send.
    public static func goboardKey(_ text: String) -> String? {
        let groups = text.trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) })
        else { return nil }
        return text.trimmed.lowercased()
    }

    /// Whether `text` can be a Waitz slug: 1–64 ASCII letters, digits, `-` and `_`.
    public static func isWaitzSlug(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// `https://campusrec.ucsc.edu/FacilityOccupancy/` → `https://campusrec.ucsc.edu` (the rule `campus add`
    /// has for a Fusion site).
    static func fusionBase(of url: URL, text: String) throws(CampusSourceProblem) -> URL {
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.lowercased().hasSuffix("/facilityoccupancy") { path.removeLast("/facilityoccupancy".count) }
        return try origin(of: url, path: path, text: text)
    }

    private static func webAddress(_ text: String) throws(CampusSourceProblem) -> URL {
        var trimmed = text.trimmed
        if !trimmed.contains("://") { trimmed = "https://" + trimmed }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
        else { throw .notAWebAddress(text) }
        return url
    }

    private static func origin(of url: URL, path: String, text: String) throws(CampusSourceProblem) -> URL {
        var components = URLComponents()
        components.scheme = url.scheme?.lowercased()
        components.host = url.host
        components.port = url.port
        var trimmedPath = path
        while trimmedPath.hasSuffix("/") { trimmedPath.removeLast() }
        components.path = trimmedPath
        guard let origin = components.url else { throw .notAWebAddress(text) }
        return origin
    }

    private static func isConnect2ConceptsHost(_ host: String) -> Bool {
        ["connect2mycloud.com", "connect2concepts.com"].contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// A query parameter's value, its name matched ignoring case (`AccountAPIKey`, `accountapikey`).
    private static func queryValue(_ url: URL, named name: String) -> String? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.first { $0.name.lowercased() == name }?.value
    }
}

/// Why an address names no campus gymcard can read.
public enum CampusSourceProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an http(s) address with a host.
    case notAWebAddress(String)
    /// A GoBoard address without `key=` or `AccountAPIKey=`.
    case noKey(address: String)
    /// A `key=` that is not a UUID.
    case notAKey(String)
    /// A Waitz address without a slug after the host.
    case noSlug(address: String)
    /// `--vendor` says one vendor, the address is another's.
    case vendorMismatch(address: String, recognized: OccupancyVendor, asked: OccupancyVendor)

    /// What is wrong, and where the right value is found.
    public var description: String {
        switch self {
        case .notAWebAddress(let text): "\(text) is not a web address"
        case .noKey(let address):
            "\(address) has no GoBoard key; use the widget's address with key=<uuid> (in the page source of the"
                + " campus's occupancy page) or …/GetCountsByAccount?AccountAPIKey=<uuid>"
        case .notAKey(let text):
            (text.isEmpty ? "the GoBoard key is empty" : "\(text) is not a GoBoard key")
                + "; the key is a UUID such as aedeaf92-036d-4848-980b-7eb5526ea40c"
        case .noSlug(let address):
            "\(address) names no Waitz campus; use its page, https://waitz.io/<slug>"
        case .vendorMismatch(let address, let recognized, let asked):
            "\(address) is a \(recognized.displayName) address, not \(asked.displayName)"
        }
    }
}

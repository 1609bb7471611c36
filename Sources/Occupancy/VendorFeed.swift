import CivilTime
import Fetching
import FoundationEssentials

/// Fetching a GoBoard or Waitz campus: one GET for every zone, its answer read by the vendor's reader, and
/// every failure reported as a ``FetchError`` (an answer of the wrong kind as `unexpectedContent`, as for a
/// Fusion page).
public enum VendorFeed {
    /// JSON (GoBoard answers `application/json`; a JSON body served as `text/plain` is read too). An HTML
    /// page is refused by its media type, or by its first byte when it is served as JSON.
    public static let expected = ExpectedContent(
        mediaTypes: ["application/json", "text/json", "text/plain"], name: "JSON")

    /// The GET of `url` (``CampusSource/requestURL``, or what `GYMCARD_OCCUPANCY_URL` put in its place).
    public static func request(_ url: URL) -> HTTPRequest {
        .get(url, accept: expected.acceptHeader)
    }

    /// Every zone `vendor` lists at `url`, in the answer's order; GoBoard's times read in `zone`.
    ///
    /// - Throws: the fetch's ``FetchError``; `unexpectedContent` for an answer that holds no zones (HTML,
    ///   not JSON, another shape, an empty list: what an unknown key or slug gives).
    public static func zones(_ vendor: CampusVendor, at url: URL, fetcher: Fetcher, zone: LocalTimeZone)
        async throws(FetchError) -> [VendorZone]
    {
        let request = request(url)
        let response = try await fetcher.fetch(request, expecting: expected)
        do {
            return try zones(vendor, in: Array(response.body), zone: zone)
        } catch {
            throw .unexpectedContent(host: request.host, detail: detail(error, vendor: vendor))
        }
    }

    /// Every zone in an answer's body.
    ///
    /// - Throws: ``VendorAnswerProblem``; a Fusion campus has no JSON answer (``VendorAnswerProblem/notJSON``).
    public static func zones(_ vendor: CampusVendor, in body: [UInt8], zone: LocalTimeZone)
        throws(VendorAnswerProblem) -> [VendorZone]
    {
        switch vendor {
        case .goboard: return try GoBoardAnswer.zones(in: body, zone: zone)
        case .waitz: return try WaitzAnswer.zones(in: body)
        case .fusion: throw .notJSON
        }
    }

    /// The problem after "host answered", with what to check for an empty list.
    static func detail(_ problem: VendorAnswerProblem, vendor: CampusVendor) -> String {
        guard problem == .noZones else { return problem.description }
        switch vendor {
        case .goboard:
            // The key is published, but is printed only where asked for (doctor, campus list).
            return problem.description
                + "; GoBoard does not know the campus's key, or lists nothing for it: check the key= in the"
                + " campus's occupancy widget"
        case .waitz(let slug):
            return problem.description
                + "; Waitz does not know \(slug), or lists nothing for it: check the campus's page,"
                + " https://waitz.io/<slug>"
        case .fusion:
            return problem.description
        }
    }
}

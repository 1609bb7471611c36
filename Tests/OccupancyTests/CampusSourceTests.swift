import Configuration
import Foundation
import Occupancy
import Testing

@Suite("Which vendor an address is, and the one URL a refresh fetches")
struct CampusSourceTests {
    static let purdueKey = "aedeaf92-036d-4848-980b-7eb5526ea40c"
    static let goboardRequest =
        "https://goboardapi.azurewebsites.net/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueKey

    /// Each form a person can paste, what it is, and what a refresh then fetches.
    @Test(
        "recognized addresses",
        arguments: [
            // GoBoard widget (SHAPES.md §1: Northeastern's, Purdue's key), bar and circle, with facility=.
            (
                "https://www.connect2mycloud.com/Widgets/Data/locationCount?type=circle&key=2a2be0d8-df10-4a48-bedd-b3bc0cd628e7&loc_status=false",
                CampusVendor.goboard(key: "2a2be0d8-df10-4a48-bedd-b3bc0cd628e7"),
                "https://goboardapi.azurewebsites.net/api/FacilityCount/GetCountsByAccount?AccountAPIKey=2a2be0d8-df10-4a48-bedd-b3bc0cd628e7"
            ),
            (
                "connect2mycloud.com/Widgets/Data/locationCount?type=bar&facility=802&key="
                    + purdueKey.uppercased(),
                .goboard(key: purdueKey), goboardRequest
            ),
            // The older host form.
            (
                "https://connect2concepts.com/connect2/?type=circle&key=" + purdueKey,
                .goboard(key: purdueKey), goboardRequest
            ),
            // GoBoard API, the key in either case and the parameter's name in any case.
            (goboardRequest, .goboard(key: purdueKey), goboardRequest),
            (
                "https://goboardapi.azurewebsites.net/api/FacilityCount/GetCountsByAccount?accountapikey="
                    + purdueKey.uppercased(), .goboard(key: purdueKey), goboardRequest
            ),
            // A test server serving GoBoard's path: the path says it.
            (
                "http://127.0.0.1:8123/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueKey,
                .goboard(key: purdueKey),
                "http://127.0.0.1:8123/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueKey
            ),
            // Waitz: the page, the live URL, the compare URL, a trailing slash, www.
            ("https://waitz.io/ucsd", .waitz(slug: "ucsd"), "https://waitz.io/live/ucsd"),
            ("waitz.io/live/ucsd-rec", .waitz(slug: "ucsd-rec"), "https://waitz.io/live/ucsd-rec"),
            ("https://waitz.io/compare/ucsd", .waitz(slug: "ucsd"), "https://waitz.io/live/ucsd"),
            (
                "https://www.waitz.io/ucsb-campus/", .waitz(slug: "ucsb-campus"),
                "https://waitz.io/live/ucsb-campus"
            ),
            // Fusion, as before vendors.
            (
                "https://campusrec.ucsc.edu/FacilityOccupancy/", .fusion,
                "https://campusrec.ucsc.edu/FacilityOccupancy"
            ),
            ("connect.recsports.vt.edu", .fusion, "https://connect.recsports.vt.edu/FacilityOccupancy"),
        ])
    func recognized(_ text: String, _ vendor: CampusVendor, _ request: String) throws {
        let source = try CampusSource.recognize(text)
        #expect(source.vendor == vendor)
        #expect(source.requestURL.absoluteString == request)
    }

    @Test(
        "a test server's address with the vendor named",
        arguments: [
            (
                "http://127.0.0.1:8123/live/ucsd", OccupancyVendor.waitz, CampusVendor.waitz(slug: "ucsd"),
                "http://127.0.0.1:8123/live/ucsd"
            ),
            ("http://127.0.0.1:8123/ucsd", .waitz, .waitz(slug: "ucsd"), "http://127.0.0.1:8123/live/ucsd"),
            (
                "http://127.0.0.1:8123/prefix/live/ucsd", .waitz, .waitz(slug: "ucsd"),
                "http://127.0.0.1:8123/prefix/live/ucsd"
            ),
            (
                "http://127.0.0.1:8123/?key=" + purdueKey, .goboard, .goboard(key: purdueKey),
                "http://127.0.0.1:8123/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueKey
            ),
            (
                "http://127.0.0.1:8123/Widgets/Data/locationCount?type=circle&key=" + purdueKey, .goboard,
                .goboard(key: purdueKey),
                "http://127.0.0.1:8123/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueKey
            ),
            ("http://127.0.0.1:8123/", .fusion, .fusion, "http://127.0.0.1:8123/FacilityOccupancy"),
        ])
    func named(_ text: String, _ asked: OccupancyVendor, _ vendor: CampusVendor, _ request: String) throws {
        let source = try CampusSource.recognize(text, vendor: asked)
        #expect(source.vendor == vendor)
        #expect(source.requestURL.absoluteString == request)
    }

    @Test(
        "addresses that name no readable campus say why",
        arguments: [
            (
                "https://www.connect2mycloud.com/Widgets/Data/locationCount?type=circle", nil,
                CampusSourceProblem.noKey(
                    address: "https://www.connect2mycloud.com/Widgets/Data/locationCount?type=circle")
            ),
            ("https://www.connect2mycloud.com/Widgets/Data/locationCount?key=1234", nil, .notAKey("1234")),
            ("https://waitz.io/", nil, .noSlug(address: "https://waitz.io/")),
            ("https://waitz.io/live", nil, .noSlug(address: "https://waitz.io/live")),
            (
                "https://waitz.io/ucsd", OccupancyVendor.goboard,
                .vendorMismatch(address: "https://waitz.io/ucsd", recognized: .waitz, asked: .goboard)
            ),
            (
                "https://waitz.io/ucsd", .fusion,
                .vendorMismatch(address: "https://waitz.io/ucsd", recognized: .waitz, asked: .fusion)
            ),
            ("http://127.0.0.1:8123/live/ucsd", .goboard, .noKey(address: "http://127.0.0.1:8123/live/ucsd")),
            ("ftp://waitz.io/ucsd", nil, .notAWebAddress("ftp://waitz.io/ucsd")),
        ])
    func refused(_ text: String, _ asked: OccupancyVendor?, _ problem: CampusSourceProblem) {
        #expect(throws: problem) { try CampusSource.recognize(text, vendor: asked) }
    }

    @Test("an unrecognized address without a vendor is a Fusion site, as before vendors")
    func fusionByDefault() throws {
        #expect(try CampusSource.recognize("http://127.0.0.1:8123/live/ucsd").vendor == .fusion)
    }
}

@Suite("Vendor campuses in the config file")
struct VendorCampusSettingsTests {
    static let facility = Facility(
        key: "scifres", name: "Scifres", shortName: "Scifres", id: "6135", capacity: 25, segments: 8)

    @Test("a GoBoard and a Waitz profile are written and read back; the one URL is their page")
    func roundTrip() throws {
        var grouped = Self.facility
        grouped.group = "Operations"
        let goboard = CampusProfile(
            name: "purdue", base: CampusSource.goboardAPI, read: .page, displayType: nil,
            timeZone: "America/Indiana/Indianapolis", facilities: [grouped],
            vendor: .goboard(key: CampusSourceTests.purdueKey))
        let waitz = CampusProfile(
            name: "ucsd", base: CampusSource.waitzSite, read: .page, displayType: nil,
            timeZone: "America/Los_Angeles", facilities: [Self.facility], vendor: .waitz(slug: "ucsd-rec"))
        let document = JSONDocument.object([
            ("campuses", .object([("purdue", goboard.document), ("ucsd", waitz.document)]))
        ])
        #expect(
            goboard.document.text == """
                {
                  "vendor": "goboard",
                  "key": "aedeaf92-036d-4848-980b-7eb5526ea40c",
                  "base": "https://goboardapi.azurewebsites.net",
                  "timeZone": "America/Indiana/Indianapolis",
                  "facilities": [
                    {
                      "key": "scifres",
                      "name": "Scifres",
                      "shortName": "Scifres",
                      "id": "6135",
                      "capacity": 25,
                      "group": "Operations"
                    }
                  ]
                }

                """)
        let file = Data(document.text.utf8)
        #expect(CampusProfile.configShape.unknownKeys(in: Data(goboard.document.text.utf8)).isEmpty)
        let purdue = try OccupancySettings.resolve(configFile: file, environment: [:], campus: "purdue")
        #expect(purdue == goboard.settings)
        #expect(purdue.vendor == .goboard(key: CampusSourceTests.purdueKey))
        #expect(purdue.page.absoluteString == CampusSourceTests.goboardRequest)
        #expect(purdue.facilities == [grouped])
        let ucsd = try OccupancySettings.resolve(configFile: file, environment: [:], campus: "ucsd")
        #expect(ucsd.vendor == .waitz(slug: "ucsd-rec"))
        #expect(ucsd.page.absoluteString == "https://waitz.io/live/ucsd-rec")
        // GYMCARD_OCCUPANCY_URL replaces the one URL, as it replaces a page.
        let pointed = try OccupancySettings.resolve(
            configFile: file, environment: ["GYMCARD_OCCUPANCY_URL": "http://127.0.0.1:9/live/x"],
            campus: "ucsd")
        #expect(pointed.page.absoluteString == "http://127.0.0.1:9/live/x")
        #expect(pointed.vendor == .waitz(slug: "ucsd-rec"))
    }

    @Test("a profile without vendor is Fusion, read exactly as before")
    func fusionUnchanged() throws {
        let text = """
            {"campuses": {"ucsc": {"base": "https://campusrec.ucsc.edu", "timeZone": "America/Los_Angeles",
              "facilities": [{"key": "gym", "name": "Gym", "id": "1799266f-57d9-4cb2-9f43-f5fd88b241db", "capacity": 150}]}}}
            """
        let settings = try OccupancySettings.resolve(
            configFile: Data(text.utf8), environment: [:], campus: "ucsc")
        #expect(settings.vendor == .fusion)
        #expect(settings.read == .page)
        #expect(settings.page.absoluteString == "https://campusrec.ucsc.edu/FacilityOccupancy")
        #expect(settings.facilities[0].group == nil)
    }

    @Test(
        "a broken vendor profile names what is wrong",
        arguments: [
            (
                #""vendor": "goboard""#,
                "campuses.x is a GoBoard campus without its key (the widget's key=<uuid>)"
            ),
            (
                #""vendor": "goboard", "key": "nope""#,
                "campuses.x.key is not a GoBoard key (a UUID such as aedeaf92-036d-4848-980b-7eb5526ea40c)"
            ),
            (
                #""vendor": "waitz""#,
                "campuses.x is a Waitz campus without its slug (https://waitz.io/<slug>)"
            ),
            (
                #""vendor": "waitz", "slug": "a", "key": "aedeaf92-036d-4848-980b-7eb5526ea40c""#,
                "campuses.x is a Waitz campus: key is for GoBoard"
            ),
            (
                #""vendor": "waitz", "slug": "a", "read": "fragments""#,
                "campuses.x is a Waitz campus: read and displayType are for Fusion only"
            ),
            (#""slug": "a""#, "campuses.x has a key or slug but no vendor; set vendor to goboard or waitz"),
            (#""vendor": "density""#, "campuses.x.vendor must be fusion, goboard or waitz, not density"),
        ])
    func broken(_ members: String, _ message: String) {
        let text = """
            {"campus": "x", "campuses": {"x": {\(members), "base": "https://waitz.io", "timeZone": "UTC",
              "facilities": [{"key": "k", "name": "n", "id": "1", "capacity": 1}]}}}
            """
        #expect(throws: ConfigProblem(message)) {
            try OccupancySettings.resolve(configFile: Data(text.utf8), environment: [:])
        }
    }
}

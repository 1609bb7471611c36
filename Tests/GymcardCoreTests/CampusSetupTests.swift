import CampusFeature
import CardFeature
import Fetching
import FetchingCurl
import Foundation
import GymcardCore
import Occupancy
import TestServer
import TestSupport
import Testing

/// Campus setup in-process: a real HTTP server on 127.0.0.1 answers the campus's page, the profile goes to
/// a config file in a temporary XDG tree.
@Suite struct CampusSetupTests {
    private static let cards = [
        FusionCampusPages.Card(
            id: "1799266f-57d9-4cb2-9f43-f5fd88b241db", name: "Fitness Center", capacity: 150, value: 42),
        FusionCampusPages.Card(
            id: "6b4acca4-485d-44f9-93c7-391a7526e3fc", name: "Slug Shed", capacity: 40, value: 7),
    ]

    private static func context(_ home: TemporaryDirectory, _ extra: [String: String] = [:]) throws -> Context
    {
        try Context(
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config"].merging(extra) { $1 },
            online: nil
        ) { _ in }
    }

    private static let fetcher = Fetcher(
        client: CurlClient(userAgent: "gymcard/test"),
        policy: FetchPolicy(timeoutSeconds: 20, maximumAttempts: 1))

    private static func serve(_ page: String) async throws -> LocalServer {
        try await LocalServer { request in
            request.path.lowercased() == "/facilityoccupancy"
                ? LocalServer.Response(page) : LocalServer.Response(status: 404, "not here")
        }
    }

    @Test(
        "the profile campus add keeps reads as occupancy reads the page: people, or a percent and never people",
        arguments: FusionCampusPages.Layout.allCases)
    func addedAsRead(layout: FusionCampusPages.Layout) async throws {
        let percentOnly = layout == .percentText || layout == .percentChart
        let shown = Self.cards.map {
            FusionCampusPages.Card(
                id: $0.id, name: $0.name, capacity: $0.capacity, value: $0.value, percentOnly: percentOnly)
        }
        let page = FusionCampusPages.page(shown, layout: layout)
        let server = try await Self.serve(page)
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        let setup = CampusSetup(context: try Self.context(home))
        let plan = try setup.plan(.init(url: server.url("").absoluteString, name: "loc", timeZone: "UTC"))
        let found = try await CampusPage.discover(plan.page, fetcher: Self.fetcher)
        #expect(found.map(\.measure) == Array(repeating: percentOnly ? .percent : .people, count: 2))
        #expect(found.map(\.occupancy) == (percentOnly ? [nil, nil] : [42, 7]))
        try setup.add(plan, found: found, timeZone: "UTC")

        // A new process reads the profile back and the page the way `occupancy` does.
        let settings = try Self.context(home).config.occupancySettings(campus: "loc")
        #expect(settings.facilities.map(\.key) == ["fitness-center", "slug-shed"])
        let readings = try FusionPage.readings(in: page, for: settings.facilities).map { try $0.get() }
        if percentOnly {
            #expect(readings == [.percentOnly(42), .percentOnly(7)])
        } else {
            #expect(readings.map(\.occupancy) == [42, 7])
            #expect(readings.map(\.measure) == [.people, .people])
        }
    }

    @Test(
        "campus add in one step: the zone asked after the page is read, the table and the notes; no cards, nothing added"
    )
    func addInOneStep() async throws {
        let shown = Self.cards.map {
            FusionCampusPages.Card(
                id: $0.id, name: $0.name, capacity: $0.capacity, value: $0.value, percentOnly: false)
        }
        let server = try await Self.serve(
            FusionCampusPages.page(shown, layout: FusionCampusPages.Layout.allCases[0]))
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        let setup = CampusSetup(context: try Self.context(home))
        let plan = try setup.plan(.init(url: server.url("").absoluteString, name: "loc"))
        var asked: [String] = []
        let added = try await setup.add(plan, fetcher: Self.fetcher) {
            asked.append($0.name)
            return "America/Los_Angeles"
        }
        #expect(asked == ["loc"])
        #expect(added.table.contains("fitness-center") && added.notes.isEmpty)
        let settings = try Self.context(home).config.occupancySettings(campus: "loc")
        #expect(settings.timeZone == "America/Los_Angeles")
        // facilities --discover reads the same page: every card, and nothing configured is missing.
        let discovered = try await FacilityListing.discover(
            settings, fetcher: Self.fetcher, configPath: "config.json")
        #expect(discovered.listing.json.contains("fitness-center") && discovered.notes.isEmpty)
        var more = settings
        more.facilities.append(
            Facility(key: "pool", name: "Pool", shortName: "Pool", id: "999", capacity: 10, segments: 1))
        #expect(
            try await FacilityListing.discover(more, fetcher: Self.fetcher, configPath: "config.json").notes
                .count == 1)

        let empty = try await Self.serve("<html><body>no cards</body></html>")
        defer { Task { await empty.stop() } }
        let bare = try setup.plan(.init(url: empty.url("").absoluteString, name: "bare"))
        await #expect(throws: CampusPageProblem.self) {
            _ = try await setup.add(bare, fetcher: Self.fetcher) { _ in
                Issue.record("asked for a zone")
                return "UTC"
            }
        }
        #expect(throws: (any Error).self) { try Self.context(home).config.occupancySettings(campus: "bare") }
    }

    @Test("cards without a heading or a capacity are added, with a note naming each key to fill in")
    func unnamedCards() async throws {
        func card(_ id: String, heading: String) -> String {
            "<div data-facilityid=\"\(id)\">\(heading)<canvas class=\"occupancy-chart\" data-occupancy=\"3\" "
                + "data-remaining=\"0\"></canvas></div>"
        }
        let page =
            card(Self.cards[0].id, heading: "<h2>Fitness Center</h2>") + card(Self.cards[1].id, heading: "")
        let server = try await Self.serve("<html><body>\(page)</body></html>")
        defer { Task { await server.stop() } }
        let home = try TemporaryDirectory()
        let setup = CampusSetup(context: try Self.context(home))
        let plan = try setup.plan(.init(url: server.url("").absoluteString, name: "bare", timeZone: "UTC"))
        let found = try await CampusPage.discover(plan.page, fetcher: Self.fetcher)
        let notes = setup.notes(plan, found: found)
        #expect(notes.count == 3, "\(notes)")
        #expect(
            notes.last?.hasPrefix(
                "1 of 2 cards have no heading; name them as campuses.bare.facilities[1].name") == true)
        #expect(notes.first?.contains("campuses.bare.facilities[0].capacity") == true)
        let profile = try setup.add(plan, found: found, timeZone: "UTC")
        #expect(profile.facilities.map(\.name) == ["Fitness Center", "(no name)"])
        #expect(profile.facilities.map(\.capacity) == [100, 100])
    }

    @Test(
        "a page that is not the occupancy page: what it is, and nothing added",
        arguments: [
            (FusionCampusPages.waitingRoom, CampusPageProblem.notThePage(page: "", .waitingRoom)),
            (FusionCampusPages.signIn, .notThePage(page: "", .signInPage)),
            (FusionCampusPages.javaScriptShell, .noCards(page: "", .javaScriptShell)),
            ("", .noCards(page: "", .emptyPage)),
        ])
    func notThePage(page: String, expected: CampusPageProblem) async throws {
        let server = try await Self.serve(page)
        defer { Task { await server.stop() } }
        let url = server.url("/FacilityOccupancy")
        await #expect {
            try await CampusPage.discover(url, fetcher: Self.fetcher)
        } throws: { error in
            switch (error as? CampusPageProblem, expected) {
            case (.notThePage(_, let found)?, .notThePage(_, let wanted)): found == wanted
            case (.noCards(_, let found)?, .noCards(_, let wanted)): found == wanted
            default: false
            }
        }
    }

    @Test("names: from the site, taken, built in; zones checked; fragments need a display type")
    func plans() throws {
        let home = try TemporaryDirectory()
        let setup = CampusSetup(context: try Self.context(home))
        #expect(try setup.plan(.init(url: "recportal.example.ca/FacilityOccupancy/")).name == "example")
        #expect(try setup.plan(.init(url: "recportal.torontomu.ca")).name == "tmu")
        #expect(
            try setup.plan(.init(url: "https://recportal.torontomu.ca")).base.absoluteString
                == "https://recportal.torontomu.ca")
        #expect(throws: CampusSetupProblem.notAWebAddress("ftp://x")) {
            try setup.plan(.init(url: "ftp://x"))
        }
        #expect(throws: CampusSetupProblem.builtIn) { try setup.plan(.init(url: "a.edu", name: "vt")) }
        #expect(throws: CampusSetupProblem.self) {
            try setup.plan(.init(url: "a.edu", timeZone: "Mars/Olympus"))
        }
        #expect(throws: CampusSetupProblem.fragmentsNeedDisplayType) {
            try setup.plan(.init(url: "a.edu", read: .fragments))
        }
    }

    @Test(
        "vendor addresses as people paste them: the vendor, its account, the base requests go to, the name",
        arguments: [
            (
                "https://www.connect2mycloud.com/Widgets/Data/locationCount?type=circle&key=2A2BE0D8-DF10-4A48-BEDD-B3BC0CD628E7&loc_status=false",
                "goboard", "2a2be0d8-df10-4a48-bedd-b3bc0cd628e7", "https://goboardapi.azurewebsites.net"
            ),
            (
                "https://goboardapi.azurewebsites.net/api/FacilityCount/GetCountsByAccount?AccountAPIKey=73829a91-48cb-4b7b-bd0b-8cf4134c04cd",
                "goboard", "73829a91-48cb-4b7b-bd0b-8cf4134c04cd", "https://goboardapi.azurewebsites.net"
            ),
            ("https://waitz.io/ucsd-rec", "ucsd-rec", "ucsd-rec", "https://waitz.io"),
            (
                "waitz.io/live/vanderbilt-university", "vanderbilt-university", "vanderbilt-university",
                "https://waitz.io"
            ),
            (
                "purdue", "purdue", "aedeaf92-036d-4848-980b-7eb5526ea40c",
                "https://goboardapi.azurewebsites.net"
            ),
            (
                "uw-madison", "uw-madison", "7938fc89-a15c-492d-9566-12c961bc1f27",
                "https://goboardapi.azurewebsites.net"
            ),
            (
                "https://goboardapi.azurewebsites.net/api/FacilityCount/GetCountsByAccount?AccountAPIKey=aedeaf92-036d-4848-980b-7eb5526ea40c",
                "purdue", "aedeaf92-036d-4848-980b-7eb5526ea40c", "https://goboardapi.azurewebsites.net"
            ),
        ])
    func vendorPlans(url: String, name: String, account: String, base: String) throws {
        let home = try TemporaryDirectory()
        let plan = try CampusSetup(context: try Self.context(home)).plan(.init(url: url))
        #expect(plan.name == name)
        #expect(plan.vendor.account == account)
        #expect(plan.base.absoluteString == base)
        #expect(plan.read == .page && plan.displayType == nil)
        // A built-in campus brings its zone; the key alone says none.
        #expect(
            plan.known?.timeZone
                == ["purdue": "America/Indiana/Indianapolis", "uw-madison": "America/Chicago"][name])
    }

    @Test("vendor plans refuse what only Fusion has, and a --vendor the address contradicts")
    func vendorPlanProblems() throws {
        let home = try TemporaryDirectory()
        let setup = CampusSetup(context: try Self.context(home))
        #expect(throws: CampusSetupProblem.fusionOnlyOption(.goboard)) {
            try setup.plan(.init(url: "purdue", read: .fragments))
        }
        #expect(
            throws: CampusSourceProblem.vendorMismatch(
                address: "https://waitz.io/ucsd", recognized: .waitz, asked: .goboard)
        ) {
            try setup.plan(.init(url: "https://waitz.io/ucsd", vendor: .goboard))
        }
        // A test server says nothing of its vendor: --vendor does.
        let local = try setup.plan(.init(url: "http://127.0.0.1:8080/ucsd-rec", vendor: .waitz))
        #expect(local.vendor == .waitz(slug: "ucsd-rec"))
        #expect(local.page.absoluteString == "http://127.0.0.1:8080/live/ucsd-rec")
    }

    @Test("use and remove keep the rest of the file; removing the campus in use goes back to vt")
    func useAndRemove() throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        let path = home.path + "/config/gymcard/config.json"
        try
            #"{"events": {"url": "https://example.edu/feed"}, "campuses": {"one": {"base": "https://one.edu", "timeZone": "UTC", "facilities": [{"key": "gym", "name": "Gym", "id": "1799266f-57d9-4cb2-9f43-f5fd88b241db", "capacity": 10}]}}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        try CampusSetup(context: try Self.context(home)).use("one")
        let listed = try CampusSetup(context: try Self.context(home)).listings()
        #expect(listed.campuses.map(\.name) == ["vt", "one"])
        #expect(listed.campuses.map(\.inUse) == [false, true])
        #expect(listed.campuses.last?.site == "https://one.edu")
        #expect(listed.strayInUse == nil)
        #expect(throws: CampusSetupProblem.unknownCampus("two", profiles: ["one"])) {
            try CampusSetup(context: try Self.context(home)).use("two")
        }
        #expect(throws: CampusSetupProblem.removingBuiltIn) {
            try CampusSetup(context: try Self.context(home)).remove("vt")
        }
        #expect(try CampusSetup(context: try Self.context(home)).remove("one") == (true, nil))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.contains("example.edu/feed") && !text.contains("one.edu") && !text.contains("\"campus\""))
    }

    @Test(
        "the zone suggested: the known campus's, else from the site's country and this machine's zone",
        arguments: [
            ("https://campusrec.ucsc.edu", "Europe/Berlin", "America/Los_Angeles"),
            ("https://rec.example.ca", "Europe/Berlin", "America/Toronto"),
            ("https://rec.example.ca", "America/Vancouver", "America/Vancouver"),
            ("https://rec.example.edu", "Europe/Berlin", "America/New_York"),
            ("https://rec.example.edu", "America/Denver", "America/Denver"),
            ("https://sport.example.de", ":Europe/Berlin", "Europe/Berlin"),
        ])
    func zoneGuess(site: String, machine: String, expected: String) throws {
        let home = try TemporaryDirectory()
        let zones = CampusZone(context: try Self.context(home, ["TZ": machine]))
        let base = try #require(URL(string: site))
        #expect(zones.guess(known: KnownCampus.at(base), base: base).zone == expected)
    }
}

import Foundation
import TestServer
import TestSupport
import Testing

/// A local GoBoard API and Waitz site in one server: `GET …/api/FacilityCount/GetCountsByAccount` answers
/// ``goboard``, `GET …/live/<slug>` answers ``waitz`` (each switchable); every request is counted, the
/// opening-hours path too, which a vendor campus must never ask.
final class FakeVendors: Sendable {
    let goboard: Locked<LocalServer.Response>
    let waitz: Locked<LocalServer.Response>
    let requests = Locked<[String]>([])
    let server: LocalServer

    init(goboard: Data = goboardAnswer(), waitz: Data = waitzAnswer()) async throws {
        let goboardAnswer = Locked(LocalServer.Response.json(goboard))
        let waitzAnswer = Locked(LocalServer.Response.json(waitz))
        let requests = requests
        self.goboard = goboardAnswer
        self.waitz = waitzAnswer
        server = try await LocalServer { request in
            requests.withLock { $0.append(request.path + (request.query.map { "?" + $0 } ?? "")) }
            if request.path.hasSuffix("/api/FacilityCount/GetCountsByAccount") {
                return goboardAnswer.withLock { $0 }
            }
            if request.path.hasPrefix("/live/") { return waitzAnswer.withLock { $0 } }
            return LocalServer.Response(status: 404, "not here")
        }
    }

    /// The requests made so far, then forgets them.
    func takeRequests() -> [String] {
        requests.withLock { seen in
            defer { seen = [] }; return seen
        }
    }

    var base: String { server.url("").absoluteString }

    /// `campus add` of this server's GoBoard campus by a bare address and `--vendor goboard`.
    func addGoBoard(
        _ gymcard: GymcardProcess, name: String = "purdue", zone: String = "America/Indiana/Indianapolis"
    ) async throws -> GymcardProcess.Result {
        try await gymcard.run([
            "campus", "add", base + "/?key=" + purdueAccountKey, "--vendor", "goboard", "--name", name,
            "--time-zone", zone,
        ])
    }

    /// gymcard at `now`, its opening-hours service pointed at this server (so a request there is seen).
    func gymcard(_ home: TemporaryDirectory, now: String = purdueFetchedAt) -> GymcardProcess {
        GymcardProcess(
            home: home.path,
            extra: [
                "GYMCARD_TEST_NOW": now, "GYMCARD_HOURS_URL": server.url("/rshours/").absoluteString,
            ])
    }
}

/// When Purdue's over-capacity answer was saved: 18:01:07 in West Lafayette (Eastern).
let purdueFetchedAt = "2026-02-06T23:01:07Z"
let purdueAccountKey = "aedeaf92-036d-4848-980b-7eb5526ea40c"

/// A GoBoard answer shaped as Purdue's and UW-Madison's (SHAPES.md §1): the always-0 fields, names with a
/// trailing space, two buildings, over capacity, a closed zone with a stale count, a count 3 h old.
func goboardAnswer(pool: (count: Int?, capacity: Int) = (10, 40)) -> Data {
    func zone(
        _ id: Int, _ name: String, capacity: Int, count: Int?, updated: String, closed: Bool = false,
        facility: (Int, String) = (976, "Operations")
    ) -> [String: Any] {
        [
            "LocationId": id, "TotalCapacity": capacity, "LocationName": name, "CountOfParticipants": 0,
            "PercetageCapacity": 0, "LastUpdatedDateAndTime": updated, "LastCount": count ?? NSNull(),
            "FacilityId": facility.0, "FacilityName": facility.1, "IsClosed": closed,
            "SubLocations": NSNull(), "MinColor": "#ffc90e", "MidColor": NSNull(), "MaxColor": "#ed1c24",
        ]
    }
    let zones = [
        zone(6129, "Upper Track (4th Floor) ", capacity: 10, count: 18, updated: "2026-02-06T17:52:41.077"),
        zone(5985, "Lower Gym", capacity: 250, count: 103, updated: "2026-02-06T14:40:00.5"),
        zone(5994, "TREC", capacity: 300, count: 4, updated: "2026-02-05T23:31:37.013", closed: true),
        zone(
            8001, "Cove Pool", capacity: pool.capacity, count: pool.count, updated: "2026-02-06T17:30:00",
            facility: (1656, "Bakke Recreation & Wellbeing Center")),
    ]
    return (try? JSONSerialization.data(withJSONObject: zones)) ?? Data()
}

/// A Waitz `/live` answer (SHAPES.md §2): over capacity (`busyness` capped at 99), closed with people, a
/// location with floors.
func waitzAnswer(mainGym: Int = 40) -> Data {
    let locations: [[String: Any]] = [
        [
            "name": "Main Gym Fitness Gym", "id": 11, "busyness": mainGym * 100 / 120, "people": mainGym,
            "capacity": 120, "isAvailable": true, "isOpen": true, "hourSummary": "open",
            "percentage": Double(mainGym * 100 / 120) / 100, "subLocs": false,
        ],
        [
            "name": "Outback Climbing Center", "id": 12, "busyness": 99, "people": 86, "capacity": 30,
            "isAvailable": true, "isOpen": true, "hourSummary": "open", "percentage": 0.99, "subLocs": false,
        ],
        [
            "name": "Triton Esports Center", "id": 13, "busyness": 10, "people": 5, "capacity": 50,
            "isAvailable": true, "isOpen": false, "hourSummary": "Closed until 10:00am", "percentage": 0.1,
            "subLocs": false,
        ],
    ]
    return (try? JSONSerialization.data(withJSONObject: ["data": locations])) ?? Data()
}

/// The Purdue answer in `../shared/realworld/occupancy-vendors` (absent outside this workspace).
enum VendorAnswers {
    static let folder = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/occupancy-vendors")
    static let purdueOverCapacity =
        "connect2concepts-goboard/purdue-corec-2026-02-06T2301Z-over-capacity.json"
    static var present: Bool {
        Prerequisite.runs(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("MANIFEST.tsv").path))
    }
    static func bytes(_ file: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(file))
    }
}

private func json(_ data: Data) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

private func facilities(_ result: GymcardProcess.Result) throws -> [String: [String: Any]] {
    let list = try #require(try json(result.stdout)["facilities"] as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: list.map { ($0["key"] as? String ?? "", $0) })
}

/// `history export`'s rows for the campus, without the header.
private func historyRows(_ process: GymcardProcess, campus: String) async throws -> [String] {
    let export = try await process.run(["history", "export", "--campus", campus])
    #expect(export.status == 0, "\(export.stderr)")
    return export.stdoutText.split(separator: "\n").dropFirst().map(String.init)
}

private func minutesAfter(_ time: String, _ minutes: Double) throws -> String {
    try Date(time, strategy: .iso8601).addingTimeInterval(minutes * 60).formatted(.iso8601)
}

@Suite("GoBoard and Waitz campuses, end to end over a local server")
struct VendorCampusCommandTests {
    @Test(
        "GoBoard: campus add, occupancy (text, JSON, waybar, cached), facilities, doctor, hours; one request a refresh",
        arguments: [
            // The API address a client calls, recognized by its path on any host.
            (
                path: "/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueAccountKey.uppercased(),
                vendor: nil
            ),
            // Any address of the test server with the key, the vendor said.
            (path: "/?key=" + purdueAccountKey, vendor: "goboard"),
        ] as [(path: String, vendor: String?)])
    func goboard(path: String, vendor: String?) async throws {
        let fake = try await FakeVendors()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        let added = try await gymcard.run(
            [
                "campus", "add", fake.base + path, "--name", "purdue", "--time-zone",
                "America/Indiana/Indianapolis",
            ]
                + (vendor.map { ["--vendor", $0] } ?? []))
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdoutText.hasPrefix("purdue: Connect2Concepts GoBoard (America/Indiana/Indianapolis, "))
        // Published, but printed only where asked for: campus list and doctor.
        #expect(!added.stdoutText.contains(purdueAccountKey) && !added.stderr.contains(purdueAccountKey))
        // Names trimmed, keys from them, each zone's building.
        #expect(added.stdoutText.contains("upper-track-4th-floor  Upper Track (4th Floor)  Operations"))
        #expect(added.stdoutText.contains("cove-pool              Cove Pool                Bakke Recreation"))
        #expect(added.stderr.contains("GoBoard's live TotalCapacity"))
        // Closed is closed, whatever count the zone still carries (4).
        let trec = added.stdoutText.split(separator: "\n").first { $0.hasPrefix("trec ") }
        #expect(trec?.contains(" closed ") == true && trec?.contains("people") == false)
        #expect(
            fake.takeRequests() == ["/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueAccountKey]
        )

        // campus list names the vendor and its key.
        let list = try await gymcard.run(["campus", "list", "--json"])
        let rows = try #require(JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]])
        #expect(rows.map { $0["vendor"] as? String } == ["fusion", "goboard"])
        #expect(rows[1]["account"] as? String == purdueAccountKey)
        #expect(rows[0]["account"] is NSNull)
        let table = try await gymcard.run(["campus", "list"])
        let purdueLine = table.stdoutText.split(separator: "\n").first { $0.hasPrefix("purdue ") }
        #expect(purdueLine?.contains(" goboard ") == true, "\(table.stdoutText)")

        // Text: over capacity as it is, closed is closed, an old count says its age.
        let text = try await gymcard.run(["occupancy", "--campus", "purdue"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.isEmpty, "\(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(text.stdoutText)")
        #expect(lines[0].contains("18 / 10") && lines[0].contains("180%") && !lines[0].contains("count from"))
        #expect(
            lines[1].contains("103 / 250") && lines[1].contains("41%")
                && lines[1].hasSuffix("count from 3 h ago"))
        #expect(lines[2].hasPrefix("TREC ") && lines[2].hasSuffix("closed") && !lines[2].contains("%"))
        #expect(lines[3].contains("10 / 40"))
        // One GET for every zone, and never VT's hours service.
        #expect(
            fake.takeRequests() == ["/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueAccountKey]
        )

        let document = try await gymcard.run(["occupancy", "--campus", "purdue", "--json"])
        #expect(document.status == 0, "\(document.stderr)")
        let zones = try facilities(document)
        #expect(zones["upper-track-4th-floor"]?["percent"] as? Int == 180)
        #expect(zones["upper-track-4th-floor"]?["occupancy"] as? Int == 18)
        // 17:52:41.077 in Eastern time is 22:52:41 UTC; the fraction is not printed.
        #expect(zones["upper-track-4th-floor"]?["sourceTime"] as? String == "2026-02-06T22:52:41Z")
        #expect(zones["lower-gym"]?["sourceTime"] as? String == "2026-02-06T19:40:00Z")
        #expect(zones["trec"]?["open"] as? Bool == false)
        #expect(zones["cove-pool"]?["open"] is NSNull, "no hours known: open is unknown, not guessed")

        let waybar = try await gymcard.run(["occupancy", "--campus", "purdue", "--format", "waybar"])
        #expect(waybar.status == 0, "\(waybar.stderr)")
        let module = try json(waybar.stdout)
        #expect(module["percentage"] as? Int == 180)
        #expect((module["class"] as? [String])?.contains("closed") == true)
        let tooltip = try #require(module["tooltip"] as? String)
        #expect(tooltip.contains("Upper Track (4th Floor): 18 of 10 (180%), 0 left"))
        #expect(tooltip.contains("Lower Gym: 103 of 250 (41%), 147 left, count from 3 h ago"))
        #expect(tooltip.contains("TREC: closed"))

        // The status bar's cached answer keeps closed, over capacity and the source's time.
        let cached = try await gymcard.run(["occupancy", "--campus", "purdue", "--cached", "--json"])
        #expect(cached.status == 0, "\(cached.stderr)")
        let stored = try facilities(cached)
        #expect(stored["trec"]?["open"] as? Bool == false)
        #expect(stored["upper-track-4th-floor"]?["percent"] as? Int == 180)
        #expect(stored["lower-gym"]?["sourceTime"] as? String == "2026-02-06T19:40:00Z")
        #expect(fake.takeRequests().count == 2, "two refreshes, one request each; --cached none")

        let listed = try await gymcard.run(["facilities", "--campus", "purdue"])
        #expect(listed.stdoutText.hasPrefix("KEY "))
        #expect(listed.stdoutText.contains("GROUP"))
        let discovered = try await gymcard.run(["facilities", "--discover", "--campus", "purdue", "--json"])
        #expect(discovered.status == 0, "\(discovered.stderr)")
        let found = try #require(JSONSerialization.jsonObject(with: discovered.stdout) as? [[String: Any]])
        #expect(found.map { $0["id"] as? String } == ["6129", "5985", "5994", "8001"])
        #expect(found.map { $0["group"] as? String }.last == "Bakke Recreation & Wellbeing Center")

        // doctor checks the campus in use.
        #expect(try await gymcard.run(["campus", "use", "purdue"]).status == 0)
        let doctor = try await gymcard.run(["doctor"])
        #expect(
            doctor.stdoutText.contains("Connect2Concepts GoBoard, key \(purdueAccountKey)"),
            "\(doctor.stdoutText)")
        #expect(doctor.stdoutText.contains("publishes no opening hours"))

        let hours = try await gymcard.run(["hours", "--campus", "purdue", "trec"])
        #expect(hours.stdoutText.hasPrefix("TREC · hours unknown"))
        #expect(hours.stderr.contains("no hours known: Connect2Concepts GoBoard publishes no opening hours"))
        #expect(!fake.takeRequests().contains { $0.hasPrefix("/rshours") })
    }

    @Test("GoBoard: collect twice with the same source times stores one row per zone; trends reads them")
    func goboardHistory() async throws {
        let fake = try await FakeVendors()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let added = try await fake.addGoBoard(fake.gymcard(home))
        #expect(added.status == 0, "\(added.stderr)")
        for minutes in [0.0, 6] {
            let collect = try await fake.gymcard(home, now: try minutesAfter(purdueFetchedAt, minutes)).run([
                "collect", "--campus", "purdue", "--timeout", "20",
            ])
            #expect(collect.status == 0, "\(collect.stderr)")
            #expect(collect.stdout.isEmpty && collect.stderr.isEmpty)
        }
        #expect(fake.takeRequests().count == 3, "campus add, then one request per collect")
        let rows = try await historyRows(fake.gymcard(home), campus: "purdue")
        // Counts are typed in about hourly: the second sample read the same source times and added nothing.
        #expect(rows.count == 4, "\(rows)")
        #expect(rows.contains("upper-track-4th-floor,2026-02-06T23:01:07Z,2026-02-06T22:52:41Z,18,10,ok"))
        #expect(rows.contains("trec,2026-02-06T23:01:07Z,2026-02-06T04:31:37Z,4,300,closed"))

        // The next hour's count is a new row.
        fake.goboard.withLock { $0 = LocalServer.Response.json(goboardAnswer(pool: (25, 40))) }
        _ = try await fake.gymcard(home, now: try minutesAfter(purdueFetchedAt, 12)).run([
            "collect", "--campus", "purdue", "--timeout", "20",
        ])
        #expect(try await historyRows(fake.gymcard(home), campus: "purdue").count == 4)

        let trends = try await fake.gymcard(home, now: try minutesAfter(purdueFetchedAt, 13)).run([
            "trends", "--campus", "purdue", "lower-gym", "--json",
        ])
        #expect(trends.status == 0 || trends.status == 1, "\(trends.stderr)")
        let document = try json(trends.stdout)
        #expect(document["timeZone"] as? String == "America/Indiana/Indianapolis")
        let facility = try #require((document["facilities"] as? [[String: Any]])?.first)
        #expect(facility["key"] as? String == "lower-gym")
    }

    @Test("Waitz: campus add of the page address, occupancy, waybar, wait --below, collect and trends")
    func waitz() async throws {
        let fake = try await FakeVendors()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        let added = try await gymcard.run([
            "campus", "add", fake.base + "/ucsd-rec", "--vendor", "waitz", "--time-zone",
            "America/Los_Angeles",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        // The slug names the profile.
        #expect(added.stdoutText.hasPrefix("ucsd-rec: Waitz ucsd-rec "))
        #expect(fake.takeRequests() == ["/live/ucsd-rec"])

        let text = try await gymcard.run(["occupancy", "--campus", "ucsd-rec"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(text.stdoutText)")
        #expect(lines[0].contains("40 / 120") && lines[0].contains("33%"))
        // Waitz caps its own busyness at 99; gymcard shows what the counts say.
        #expect(lines[1].contains("86 / 30") && lines[1].contains("286%"))
        #expect(lines[2].hasSuffix("closed"))

        let document = try facilities(try await gymcard.run(["occupancy", "--campus", "ucsd-rec", "--json"]))
        #expect(document["outback-climbing-center"]?["percent"] as? Int == 286)
        #expect(document["main-gym-fitness-gym"]?["sourceTime"] is NSNull, "Waitz gives no time")
        #expect(document["triton-esports-center"]?["open"] as? Bool == false)

        let waybar = try json(
            try await gymcard.run(["occupancy", "--campus", "ucsd-rec", "--format", "waybar"]).stdout)
        #expect(waybar["percentage"] as? Int == 286)
        #expect((waybar["tooltip"] as? String)?.contains("Triton Esports Center: closed") == true)

        var waiting = gymcard
        waiting.environment["GYMCARD_TEST_TIME_SCALE"] = "600"
        let met = try await waiting.run([
            "wait", "--campus", "ucsd-rec", "--below", "50%", "--facility", "main-gym-fitness-gym",
        ])
        #expect(met.status == 0, "\(met.stderr)")
        #expect(met.stdoutText == "Main Gym Fitness Gym is at 33% (40/120), below 50%\n")
        fake.waitz.withLock { $0 = LocalServer.Response.json(waitzAnswer(mainGym: 100)) }
        let timedOut = try await waiting.run([
            "wait", "--campus", "ucsd-rec", "--below", "50%", "--facility", "main-gym-fitness-gym",
            "--timeout", "10m",
        ])
        #expect(timedOut.status == 124, "\(timedOut.stderr)")
        // Over capacity as it is, as occupancy says it (100 of 120 is 83 %).
        #expect(timedOut.stderr.contains("(it is at 83%)"), "\(timedOut.stderr)")
        let over = try await waiting.run([
            "wait", "--campus", "ucsd-rec", "--below", "50%", "--facility", "outback-climbing-center",
            "--timeout", "10m",
        ])
        #expect(over.status == 124)
        #expect(over.stderr.contains("(it is at 286%)"), "\(over.stderr)")
        _ = fake.takeRequests()

        // No source time: each sample is its own reading.
        for minutes in [30.0, 36] {
            let collect = try await fake.gymcard(home, now: try minutesAfter(purdueFetchedAt, minutes)).run([
                "collect", "--campus", "ucsd-rec", "--timeout", "20",
            ])
            #expect(collect.status == 0, "\(collect.stderr)")
        }
        #expect(fake.takeRequests() == ["/live/ucsd-rec", "/live/ucsd-rec"])
        let rows = try await historyRows(gymcard, campus: "ucsd-rec")
        #expect(rows.filter { $0.hasPrefix("main-gym-fitness-gym,") }.count >= 2)
        #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false)[2].isEmpty })

        let trends = try await fake.gymcard(home, now: try minutesAfter(purdueFetchedAt, 37)).run([
            "trends", "--campus", "ucsd-rec", "main-gym-fitness-gym", "--json",
        ])
        #expect(trends.status == 0 || trends.status == 1, "\(trends.stderr)")
        #expect(try json(trends.stdout)["timeZone"] as? String == "America/Los_Angeles")
        #expect(!fake.takeRequests().contains { $0.hasPrefix("/rshours") })
    }

    @Test(
        "bad answers: one line, a documented status, the last good values kept",
        arguments: [
            ("HTML", LocalServer.Response(status: 200, "<!DOCTYPE html><html><body>Sign in</body></html>")),
            ("HTML", LocalServer.Response.json(Data("<html><body>Oops</body></html>".utf8))),
            ("empty list", LocalServer.Response.json(Data("[]".utf8))),
            ("an object", LocalServer.Response.json(Data("{\"Message\":\"An error has occurred.\"}".utf8))),
            (
                "429",
                LocalServer.Response(
                    status: 429, contentType: "text/plain", headers: ["Retry-After": "0"], "slow down")
            ),
            ("503", LocalServer.Response(status: 503, "down")),
        ])
    func badAnswers(words: String, answer: LocalServer.Response) async throws {
        let fake = try await FakeVendors()
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        #expect(
            try await fake.addGoBoard(gymcard).status == 0)
        #expect(try await gymcard.run(["occupancy", "--campus", "purdue"]).status == 0)
        fake.goboard.withLock { $0 = answer }

        // campus add: nothing added, one line, 65 for an answer that is not a list of zones, 69 for a
        // service that does not answer.
        let unavailable = words == "429" || words == "503"
        let add = try await fake.addGoBoard(gymcard, name: "again", zone: "UTC")
        #expect(add.status == (unavailable ? 69 : 65), "\(add.stderr)")
        #expect(add.stderrLines.count == 1, "\(add.stderr)")
        #expect(
            add.stderr.lowercased().contains(
                words == "empty list"
                    ? "goboard does not know the campus's key"
                    : words == "an object" ? "a json object" : words.lowercased()),
            "\(add.stderr)")
        #expect(add.stderr.hasSuffix("nothing was added\n"))
        #expect(!add.stderr.lowercased().contains(purdueAccountKey))
        let list = try await gymcard.run(["campus", "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: list.stdout) as? [Any])?.count == 2)

        // occupancy: the last good values shown stale, exit 75, one line; the cache keeps them.
        let later = fake.gymcard(home, now: try minutesAfter(purdueFetchedAt, 10))
        let stale = try await later.run(["occupancy", "--campus", "purdue", "--json"])
        #expect(stale.status == 75, "\(stale.stderr)")
        #expect(stale.stderrLines.count == 1, "\(stale.stderr)")
        #expect(!stale.stderr.lowercased().contains(purdueAccountKey))
        let zones = try facilities(stale)
        #expect(zones["upper-track-4th-floor"]?["status"] as? String == "stale")
        #expect(zones["upper-track-4th-floor"]?["occupancy"] as? Int == 18)
        let cached = try facilities(
            try await later.run(["occupancy", "--campus", "purdue", "--cached", "--json"]))
        #expect(cached["upper-track-4th-floor"]?["occupancy"] as? Int == 18)
        #expect(cached["lower-gym"]?["occupancy"] as? Int == 103)
    }

    @Test("a zone without a figure says so, never 0 %; the other zones still count")
    func noFigure() async throws {
        let fake = try await FakeVendors(goboard: goboardAnswer(pool: (12, 0)))
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        #expect(
            try await fake.addGoBoard(gymcard).status == 0)
        let text = try await gymcard.run(["occupancy", "--campus", "purdue"])
        #expect(text.status == 75, "partial: \(text.stderr)")
        let pool = try #require(text.stdoutText.split(separator: "\n").last)
        #expect(pool.hasPrefix("Cove Pool ") && pool.hasSuffix("no figure") && !pool.contains("%"))
        #expect(text.stderr.contains("Cove Pool: the source gives no capacity (0), so no percentage"))
        let zones = try facilities(try await gymcard.run(["occupancy", "--campus", "purdue", "--json"]))
        #expect(zones["cove-pool"]?["percent"] is NSNull)
        #expect(zones["cove-pool"]?["status"] as? String == "unavailable")
    }

    @Test(
        "one refresh of Purdue's 35 zones is one request",
        .enabled(if: VendorAnswers.present, "../shared/realworld/occupancy-vendors is not beside the package")
    )
    func oneRequest() async throws {
        let body = try VendorAnswers.bytes(VendorAnswers.purdueOverCapacity)
        let fake = try await FakeVendors(goboard: body)
        defer { Task { await fake.server.stop() } }
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        let added = try await gymcard.run([
            "campus", "add",
            fake.base + "/api/FacilityCount/GetCountsByAccount?AccountAPIKey=" + purdueAccountKey,
            "--name", "purdue", "--time-zone", "America/Indiana/Indianapolis",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdoutText.split(separator: "\n").count == 2 + 35)
        _ = fake.takeRequests()
        let result = try await gymcard.run(["occupancy", "--campus", "purdue", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try facilities(result).count == 35)
        #expect(fake.takeRequests().count == 1)
    }

    @Test(
        "the built-in campuses and the real URL forms need no address typed; a wrong --vendor is a usage error"
    )
    func builtInAndUsage() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        // A widget URL whose key is not a UUID, a Waitz address without a slug, --vendor against the address.
        for (arguments, words) in [
            (
                ["https://www.connect2mycloud.com/Widgets/Data/locationCount?type=circle&key=nope"],
                "not a GoBoard key"
            ),
            (["https://waitz.io/"], "names no Waitz campus"),
            (
                ["https://waitz.io/ucsd", "--vendor", "goboard"],
                "is a Waitz address, not Connect2Concepts GoBoard"
            ),
            (["purdue", "--read", "fragments"], "--read and --display-type are for Innosoft Fusion"),
        ] {
            let result = try await gymcard.run(["campus", "add"] + arguments + ["--time-zone", "UTC"])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains(words), "\(result.stderr)")
        }
        // The address is named without its query: the key is printed only where asked for.
        let widget = "https://www.connect2mycloud.com/Widgets/Data/locationCount"
        let mismatch = try await gymcard.run([
            "campus", "add", widget + "?type=circle&key=" + purdueAccountKey, "--vendor", "waitz",
            "--time-zone",
            "UTC",
        ])
        #expect(mismatch.status == 64 && mismatch.stderrLines.count == 1, "\(mismatch.stderr)")
        #expect(mismatch.stderr.hasPrefix("gymcard: \(widget) is a "), "\(mismatch.stderr)")
        #expect(!mismatch.stderr.lowercased().contains(purdueAccountKey))
        let help = try await gymcard.run(["campus", "add", "--help"])
        for words in ["fusion:", "goboard:", "waitz:", "key=", "waitz.io/<slug>", "purdue", "uw-madison"] {
            #expect(help.stdoutText.contains(words), "\(words)")
        }
    }
}

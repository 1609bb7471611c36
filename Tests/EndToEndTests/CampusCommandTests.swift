import Foundation
import TestServer
import TestSupport
import Testing

/// A local Fusion campus: `GET /FacilityOccupancy` answers its page (switchable), and every request is
/// counted.
final class FakeCampus: Sendable {
    let page: Locked<String>
    let requests = Locked<[String]>([])
    let server: LocalServer

    init(_ page: String) async throws {
        let current = Locked(page)
        let requests = requests
        self.page = current
        server = try await LocalServer { request in
            requests.withLock { $0.append("\(request.method) \(request.path)") }
            guard request.path.lowercased() == "/facilityoccupancy" else {
                return LocalServer.Response(status: 404, "not here")
            }
            return LocalServer.Response(current.withLock { $0 })
        }
    }

    /// The site's base URL.
    var base: String { server.url("").absoluteString }
}

private let gymID = "1799266f-57d9-4cb2-9f43-f5fd88b241db"
private let shedID = "6b4acca4-485d-44f9-93c7-391a7526e3fc"

private func cards(gym: Int, shed: Int, percentOnly: Bool = false) -> [FusionCampusPages.Card] {
    [
        FusionCampusPages.Card(
            id: gymID, name: "Fitness Center", capacity: 150, value: gym, percentOnly: percentOnly),
        FusionCampusPages.Card(
            id: shedID, name: "Slug Shed", capacity: 40, value: shed, percentOnly: percentOnly),
    ]
}

private func configText(_ home: TemporaryDirectory) throws -> String {
    try String(contentsOfFile: home.path + "/config/gymcard/config.json", encoding: .utf8)
}

private func json(_ data: Data) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite("gymcard campus: any Innosoft Fusion campus, end to end")
struct CampusCommandTests {
    @Test("campus add reads the page, shows what it found and keeps a profile without switching to it")
    func add() async throws {
        let campus = try await FakeCampus(FusionCampusPages.page(cards(gym: 61, shed: 7), layout: .charts))
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path)
        // A config the person wrote, with keys in their own order: kept as they were.
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        let original = """
            {"notify": {"ntfy": "https://ntfy.sh/my-gym"}, "events": {"url": "https://example.org/feed.rss"}}
            """
        try original.write(
            toFile: home.path + "/config/gymcard/config.json", atomically: true, encoding: .utf8)

        let added = try await process.run([
            "campus", "add", campus.base + "/FacilityOccupancy/", "--name", "ucsc", "--time-zone",
            "America/Los_Angeles",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdoutText.contains("fitness-center  Fitness Center  150"))
        #expect(added.stdoutText.contains("slug-shed"))
        #expect(added.stdoutText.contains("61 people"))
        #expect(added.stderr.contains("campus use ucsc"))
        #expect(campus.requests.withLock { $0 } == ["GET /FacilityOccupancy"])

        let config = try configText(home)
        // The person's keys first, in their order, then the new section.
        let notify = try #require(config.range(of: "\"notify\""))
        let events = try #require(config.range(of: "\"events\""))
        let campuses = try #require(config.range(of: "\"campuses\""))
        #expect(notify.lowerBound < events.lowerBound && events.lowerBound < campuses.lowerBound)
        #expect(config.contains("\"https://ntfy.sh/my-gym\""))
        #expect(config.contains("\"timeZone\": \"America/Los_Angeles\""))
        #expect(!config.contains("\"campus\":"), "adding does not change the campus in use")

        let list = try await process.run(["campus", "list", "--json"])
        let rows = try #require(JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["vt", "ucsc"])
        #expect(rows.map { $0["inUse"] as? Bool } == [true, false])
        #expect(rows[1]["facilities"] as? [String] == ["fitness-center", "slug-shed"])

        // The same name again is refused; the file is unchanged.
        let again = try await process.run([
            "campus", "add", campus.base, "--name", "ucsc", "--time-zone", "UTC",
        ])
        #expect(again.status == 64)
        #expect(again.stderr.contains("already a campus ucsc"))
        #expect(try configText(home) == config)
    }

    @Test("occupancy --campus reads every facility with one GET, with the page's own time in the history")
    func occupancy() async throws {
        let campus = try await FakeCampus(FusionCampusPages.page(cards(gym: 61, shed: 7), layout: .charts))
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": "2026-11-24T23:10:00Z"])
        let added = try await process.run([
            "campus", "add", campus.base, "--name", "ucsc", "--time-zone", "America/Los_Angeles",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        campus.requests.withLock { $0 = [] }

        let result = try await process.run(["occupancy", "--campus", "ucsc", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(campus.requests.withLock { $0 } == ["GET /FacilityOccupancy"])
        let facilities = try #require(try json(result.stdout)["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["key"] as? String } == ["fitness-center", "slug-shed"])
        #expect(facilities.map { $0["occupancy"] as? Int } == [61, 7])
        #expect(facilities.map { $0["capacity"] as? Int } == [150, 40])
        #expect(facilities.map { $0["measure"] as? String } == ["people", "people"])

        // The page says "2:56 PM" in Santa Cruz on 24 November: 22:56 UTC.
        let export = try await process.run(["history", "export", "--campus", "ucsc"])
        #expect(
            export.stdoutText.contains("fitness-center,2026-11-24T23:10:00Z,2026-11-24T22:56:00Z,61,150,ok"))

        // Text, and the campus in use once chosen.
        #expect(try await process.run(["campus", "use", "ucsc"]).status == 0)
        let text = try await process.run(["occupancy"])
        #expect(text.stdoutText.hasPrefix("Fitness Center  "))
        #expect(text.stdoutText.contains("61 / 150"))
        #expect(try await process.run(["campus", "use", "vt"]).status == 0)
        #expect(try !configText(home).contains("\"campus\":"))

        // The site renumbered its facilities: the advice names the command for this campus.
        campus.page.withLock {
            $0 = FusionCampusPages.page(
                [
                    FusionCampusPages.Card(
                        id: "00000000-0000-0000-0000-0000000000ff", name: "New", capacity: 9, value: 1)
                ],
                layout: .charts)
        }
        let moved = try await process.run(["occupancy", "--campus", "ucsc"])
        #expect(moved.status == 75)
        #expect(
            moved.stderr.contains("its ID may have changed (gymcard facilities --discover --campus ucsc)"))
    }

    @Test(
        "a percent-only campus shows percent, with no head count invented, in text and JSON",
        // Every layout is added and read in-process (CampusSetupTests); here the one issue 26 found.
        arguments: [FusionCampusPages.Layout.percentChart])
    func percentOnly(layout: FusionCampusPages.Layout) async throws {
        let campus = try await FakeCampus(
            FusionCampusPages.page(cards(gym: 45, shed: 80, percentOnly: true), layout: layout))
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path)
        let added = try await process.run([
            "campus", "add", campus.base, "--name", "tmu", "--time-zone", "America/Toronto",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdoutText.contains("45% (percent only)"))
        #expect(!added.stdoutText.contains("people"))
        #expect(try configText(home).contains("\"measure\": \"percent\""))

        let result = try await process.run(["occupancy", "--campus", "tmu", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let facilities = try #require(try json(result.stdout)["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["percent"] as? Int } == [45, 80])
        #expect(facilities.map { $0["measure"] as? String } == ["percent", "percent"])
        #expect(facilities.allSatisfy { $0["occupancy"] is NSNull && $0["remaining"] is NSNull })

        let text = try await process.run(["occupancy", "--campus", "tmu"])
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        #expect(lines[0].contains("45%") && !lines[0].contains("/") && !lines[0].contains("left"))

        // Stored and read back as a percent.
        let cached = try await process.run(["occupancy", "--campus", "tmu", "--cached", "--json"])
        let stored = try #require(try json(cached.stdout)["facilities"] as? [[String: Any]])
        #expect(stored.map { $0["measure"] as? String } == ["percent", "percent"])

        // A head count cannot be waited for where there is none.
        let wait = try await process.run(["wait", "--campus", "tmu", "--below", "20"])
        #expect(wait.status == 64)
        #expect(wait.stderr.contains("only a percentage"))
    }

    @Test(
        "pages that are not an occupancy page: campus add and facilities --discover say which; occupancy says unavailable",
        arguments: [
            // Every shape is read in-process (CampusSetupTests); here one of each exit status.
            (FusionCampusPages.waitingRoom, "waiting room", Int32(69)),
            (FusionCampusPages.javaScriptShell, "JavaScript", Int32(65)),
        ])
    func notThePage(page: String, words: String, status: Int32) async throws {
        let campus = try await FakeCampus(page)
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path)
        let added = try await process.run(["campus", "add", campus.base, "--name", "x", "--time-zone", "UTC"])
        #expect(added.status == status)
        #expect(added.stderr.contains(words), "\(added.stderr)")
        #expect(added.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/config/gymcard/config.json"))

        // A campus whose page turns into one of these later: unavailable with the reason, never zero.
        campus.page.withLock { $0 = FusionCampusPages.page(cards(gym: 3, shed: 1), layout: .countText) }
        #expect(
            try await process.run(["campus", "add", campus.base, "--name", "x", "--time-zone", "UTC"]).status
                == 0)
        campus.page.withLock { $0 = page }
        let result = try await process.run(["occupancy", "--campus", "x", "--json"])
        #expect(result.status == 69)
        let facilities = try #require(try json(result.stdout)["facilities"] as? [[String: Any]])
        #expect(
            facilities.allSatisfy { $0["status"] as? String == "unavailable" && $0["occupancy"] is NSNull })
        #expect(result.stderr.contains(words), "\(result.stderr)")

        // facilities --discover reads the page as campus add does: the same words and status.
        let discovered = try await process.run(["facilities", "--discover", "--campus", "x"])
        #expect(discovered.status == status)
        #expect(discovered.stderr.contains(words), "\(discovered.stderr)")
    }

    @Test("two campuses keep their histories and last values apart, and apart from Virginia Tech's")
    func historiesApart() async throws {
        let one = try await FakeCampus(FusionCampusPages.page(cards(gym: 61, shed: 7), layout: .charts))
        let two = try await FakeCampus(FusionCampusPages.page(cards(gym: 12, shed: 30), layout: .countText))
        defer {
            Task {
                await one.server.stop(); await two.server.stop()
            }
        }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path)
        for (name, campus) in [("one", one), ("two", two)] {
            let added = try await process.run([
                "campus", "add", campus.base, "--name", name, "--time-zone", "UTC",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await process.run(["occupancy", "--campus", name]).status == 0)
        }
        // The same facility IDs and keys at both campuses: still two histories.
        let first = try await process.run(["history", "export", "--campus", "one"])
        let second = try await process.run(["history", "export", "--campus", "two"])
        #expect(first.stdoutText.contains(",61,150,ok") && !first.stdoutText.contains(",12,150,ok"))
        #expect(second.stdoutText.contains(",12,150,ok") && !second.stdoutText.contains(",61,150,ok"))
        let vt = try await process.run(["history", "export"])
        #expect(vt.stdoutText == "facility,fetched_at,source_time,occupancy,capacity,status\n")
        let cached = try await process.run(["occupancy", "--campus", "two", "--cached", "--json"])
        let facilities = try #require(try json(cached.stdout)["facilities"] as? [[String: Any]])
        #expect(facilities.map { $0["occupancy"] as? Int } == [12, 30])
        #expect(
            FileManager.default.fileExists(atPath: home.path + "/state/gymcard/campuses/one/history.sqlite3"))

        // Removing a campus keeps its history, and says where.
        let removed = try await process.run(["campus", "remove", "one"])
        #expect(removed.status == 0)
        #expect(removed.stderr.contains("campuses/one"))
        #expect(
            FileManager.default.fileExists(atPath: home.path + "/state/gymcard/campuses/one/history.sqlite3"))
        let unknown = try await process.run(["occupancy", "--campus", "one"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr
                == "gymcard: there is no campus one; known: vt, two (add one with gymcard campus add <url>)\n"
        )
        // Every command words an unknown campus the same way.
        let use = try await process.run(["campus", "use", "one"])
        #expect(use.status == 64 && use.stderr == unknown.stderr)

        // A config file whose campus was taken out by hand: list says so and which to choose.
        let config = try configText(home)
        try config.replacing("{", with: #"{"campus": "one", "#, maxReplacements: 1)
            .write(toFile: home.path + "/config/gymcard/config.json", atomically: true, encoding: .utf8)
        let listed = try await process.run(["campus", "list"])
        #expect(listed.status == 0)
        #expect(!listed.stdoutText.contains("(in use)"))
        #expect(
            listed.stderr
                == "gymcard: warning: the config file's campus one is not one of these; "
                + "choose one with gymcard campus use <name>\n")
    }

    @Test(
        "on a terminal, campus add asks for the zone: an unknown one is asked again, Enter takes the suggestion"
    )
    func zoneAsked() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let campus = try await FakeCampus(FusionCampusPages.page(cards(gym: 1, shed: 2), layout: .charts))
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path, extra: ["TZ": "Europe/Berlin"])
        let script = """
            import pexpect, sys, json
            env = json.loads(sys.argv[2])
            answers = []
            for name, reply in (("one", "Nowhere/Zone"), ("two", "")):
                child = pexpect.spawn(sys.argv[1], ["campus", "add", sys.argv[3], "--name", name], env=env,
                                      timeout=20, dimensions=(24, 100))
                child.expect(r"Time zone of 127\\.0\\.0\\.1 \\[Europe/Berlin\\]: ")
                child.sendline(reply)
                if reply:
                    child.expect("not a time zone known here")
                    child.expect(r"\\[Europe/Berlin\\]: ")
                    child.sendline("America/Los_Angeles")
                child.expect(pexpect.EOF)
                child.close()
                answers.append({"status": child.exitstatus, "output": child.before.decode()})
            print(json.dumps(answers))
            """
        let environment = String(
            decoding: try JSONSerialization.data(withJSONObject: process.environment), as: UTF8.self)
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, environment, campus.base])
        #expect(status == 0, "\(error)")
        let answers = try #require(JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        #expect(answers.map { $0["status"] as? Int } == [0, 0])
        let config = try configText(home)
        let one = try #require(config.range(of: "\"one\""))
        let two = try #require(config.range(of: "\"two\""))
        #expect(config[one.upperBound..<two.lowerBound].contains("\"timeZone\": \"America/Los_Angeles\""))
        #expect(config[two.upperBound...].contains("\"timeZone\": \"Europe/Berlin\""))
    }

    @Test("without --time-zone and without a terminal, the zone is guessed, said, and nothing waits")
    func zoneGuessed() async throws {
        let campus = try await FakeCampus(FusionCampusPages.page(cards(gym: 1, shed: 2), layout: .charts))
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let process = GymcardProcess(home: home.path, extra: ["TZ": "Europe/Berlin"])
        let added = try await process.run(
            ["campus", "add", campus.base, "--name", "far"], timeoutSeconds: 300)
        #expect(added.status == 0)
        #expect(added.stderr.contains("time zone: Europe/Berlin (this machine's zone)"))
        #expect(try configText(home).contains("\"timeZone\": \"Europe/Berlin\""))
    }
}

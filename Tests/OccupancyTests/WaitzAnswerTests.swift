import CivilTime
import Fetching
import Foundation
import Occupancy
import Synchronization
import TestServer
import TestSupport
import Testing

@Suite("Waitz answers read as their data is, over a server on 127.0.0.1")
struct WaitzAnswerTests {
    @Test(
        "the UCSD log's 21 polls rebuilt into /live/ucsd-rec answers: 4 locations each, people over capacity as they are where Waitz stops at 99, closed locations with people still closed",
        .enabled(if: Prerequisite.runs(VendorFixtures.present)))
    func ucsdRec() async throws {
        let polls = VendorFixtures.polls(try VendorFixtures.csv(VendorFixtures.ucsdLog), by: "timestamp")
        #expect(polls.count == 21)
        let answers = Mutex<[String: Data]>([:])
        let paths = Mutex<[String]>([])
        let server = try await LocalServer { request in
            paths.withLock { $0.append(request.path) }
            let poll = request.headers["x-poll"] ?? ""
            guard request.path == "/live/ucsd-rec", let body = answers.withLock({ $0[poll] }) else {
                return LocalServer.Response(status: 404, "not found")
            }
            return LocalServer.Response.json(body)
        }
        // The same slug recognized from the test server's address, Waitz named because 127.0.0.1 cannot say.
        let source = try CampusSource.recognize(server.url("/live/ucsd-rec").absoluteString, vendor: .waitz)
        #expect(source.vendor == .waitz(slug: "ucsd-rec"))
        var closedWithPeople = 0
        var overCapacity = 0
        for (index, poll) in polls.enumerated() {
            answers.withLock { $0["\(index)"] = try? VendorFixtures.waitzAnswer(fromUCSDPoll: poll.rows) }
            var fetcher = VendorFixtures.fetcher()
            fetcher.client = PollHeader(client: fetcher.client, poll: "\(index)")
            let found = try await VendorFeed.zones(
                source.vendor, at: source.requestURL, fetcher: fetcher, zone: .system)
            #expect(
                found.map(\.name)
                    == [
                        "Main Gym Fitness Gym", "Outback Climbing Center", "RIMAC Fitness Gym",
                        "Triton Esports Center",
                    ])
            for (row, zone) in zip(poll.rows, found) {
                let people = try #require(Int(row["people"] ?? ""))
                let capacity = try #require(Int(row["capacity"] ?? ""))
                #expect(zone.reading == OccupancyReading(occupancy: people, capacity: capacity))
                #expect(zone.isClosed == (row["is_open"] == "False"))
                #expect(zone.sourceTime == nil)
                #expect(zone.group == nil)
                if zone.isClosed, people > 0 { closedWithPeople += 1 }
                if people > capacity {
                    overCapacity += 1
                    #expect(row["percent_full"] == "99")
                    #expect(try #require(zone.reading).unclampedPercent == people * 100 / capacity)
                }
            }
        }
        await server.stop()
        #expect(closedWithPeople == 14)
        #expect(overCapacity == 9)
        // One request per poll, however many locations.
        #expect(paths.withLock { $0 }.count == 21)
    }

    @Test(
        "Geisel's logged floor percentages (0..1 fractions) read as a floor's percent when it has no count",
        .enabled(if: Prerequisite.runs(VendorFixtures.present)))
    func geiselPercentages() throws {
        let lines = String(decoding: try VendorFixtures.bytes(VendorFixtures.geiselLog), as: UTF8.self)
            .split(whereSeparator: \.isNewline)
        #expect(lines.count == 200)
        for line in lines {
            let fraction = try #require(line.split(separator: ",").last.map(String.init))
            let body = Array(
                """
                {"data":[{"id":1,"name":"Geisel Library","isOpen":true,"isAvailable":true,"subLocs":[
                {"id":2,"name":"1st Floor East","abbreviation":"1E","percentage":\(fraction)}]}]}
                """.utf8)
            let zones = try WaitzAnswer.zones(in: body)
            let floor = try #require(zones.last)
            #expect(floor.id == "1/2")
            #expect(floor.group == "Geisel Library")
            #expect(floor.reading == .percentOnly(Int((try #require(Double(fraction)) * 100).rounded())))
        }
    }

    @Test(
        "isAvailable false is no figure, and a capacity of 0 whatever its percentage; subLocs false or a list; a floor takes its location's isOpen"
    )
    func fields() throws {
        let body = Array(
            """
            {"data":[
            {"id":10,"name":"RIMAC","people":12,"capacity":150,"isOpen":true,"isAvailable":false,"subLocs":false},
            {"id":11,"name":"Geisel","people":300,"capacity":1000,"isOpen":false,"isAvailable":true,"subLocs":[
              {"id":1,"name":"Floor 1","people":40,"capacity":100,"abbreviation":"F1"},
              {"id":2,"name":"Floor 2","people":0,"capacity":0,"percentage":0,"isOpen":true}]}]}
            """.utf8)
        let zones = try WaitzAnswer.zones(in: body)
        #expect(zones.map(\.id) == ["10", "11", "11/1", "11/2"])
        #expect(zones[0].reading == nil && zones[0].missingFigure == .noData)
        #expect(zones[1].isClosed && zones[1].reading?.occupancy == 300)
        #expect(zones[2].isClosed && zones[2].group == "Geisel" && zones[2].reading?.occupancy == 40)
        #expect(!zones[3].isClosed && zones[3].missingFigure == .noCapacity)
    }
}

/// Adds which poll to answer, so that one server serves a sequence of answers.
private struct PollHeader: HTTPClient {
    var client: any HTTPClient
    var poll: String

    func send(_ request: HTTPRequest, timeoutSeconds: Double) async throws(FetchError) -> HTTPResponse {
        var request = request
        request.headers["X-Poll"] = poll
        return try await client.send(request, timeoutSeconds: timeoutSeconds)
    }
}

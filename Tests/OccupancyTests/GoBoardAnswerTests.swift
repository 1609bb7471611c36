import CivilTime
import Fetching
import Foundation
import Occupancy
import Synchronization
import TestServer
import TestSupport
import TestTime
import Testing

/// A server that answers GoBoard's one path with `body` and records each request's query.
private func goboardServer(_ body: Data, queries: QueryLog? = nil) async throws -> LocalServer {
    try await LocalServer { request in
        queries?.items.withLock { $0.append(request.query ?? "") }
        guard request.method == "GET", request.path == "/api/FacilityCount/GetCountsByAccount" else {
            return LocalServer.Response(status: 404, "not found")
        }
        return LocalServer.Response.json(body)
    }
}

/// Purdue's campus, served from `server` (the key is Purdue's, SHAPES.md §1).
private func purdue(_ server: LocalServer) throws -> CampusSource {
    try CampusSource.recognize(
        server.url("/api/FacilityCount/GetCountsByAccount?AccountAPIKey=aedeaf92-036d-4848-980b-7eb5526ea40c")
            .absoluteString)
}

private func zones(_ body: Data, zone: LocalTimeZone) async throws -> [VendorZone] {
    let queries = QueryLog()
    let server = try await goboardServer(body, queries: queries)
    let source = try purdue(server)
    let found = try await VendorFeed.zones(
        source.vendor, at: source.requestURL, fetcher: VendorFixtures.fetcher(), zone: zone)
    await server.stop()
    // One request for every zone, with the key as GoBoard's clients send it.
    #expect(queries.items.withLock { $0 } == ["AccountAPIKey=aedeaf92-036d-4848-980b-7eb5526ea40c"])
    return found
}

/// The query of every request a server saw.
final class QueryLog: Sendable {
    let items = Mutex<[String]>([])
}

@Suite("GoBoard answers read as their data is, over a server on 127.0.0.1")
struct GoBoardAnswerTests {
    /// What MANIFEST.tsv says of each Purdue answer: closed zones, over-capacity zones (count/capacity).
    struct PurdueFacts: Sendable, CustomTestStringConvertible {
        var file: String
        var closed: Set<String>
        var overCapacity: [String: String]
        var newest: String
        var testDescription: String { file }
    }

    static let purdueFacts = [
        PurdueFacts(
            file: VendorFixtures.purdueAnswers[0], closed: ["Outdoor Tennis", "Outdoor Pickleball"],
            overCapacity: ["MAC Court": "62/50", "Atrium Track (3rd Floor)": "15/10", "Scifres": "31/25"],
            newest: "2026-01-31T17:52:00.233"),
        PurdueFacts(
            file: VendorFixtures.purdueAnswers[1],
            closed: [
                "Feature Gym", "B&G Gym 1-3", "B&G Gym 4-6", "Climbing Wall", "APGL", "TREC",
                "Outdoor Tennis",
                "Outdoor Pickleball",
            ], overCapacity: [:], newest: "2026-02-01T10:28:47.483"),
        PurdueFacts(
            file: VendorFixtures.purdueAnswers[2],
            closed: ["MP6", "MP5", "TREC", "Outdoor Tennis", "Outdoor Pickleball"],
            overCapacity: [
                "Upper Track (4th Floor)": "18/10", "Upper Fitness": "38/30", "MAC Court": "53/50",
                "Atrium Track (3rd Floor)": "13/10", "Scifres": "44/25", "MP4": "46/25",
            ], newest: "2026-02-06T17:21:12.88"),
        PurdueFacts(
            file: VendorFixtures.purdueAnswers[3],
            closed: ["MP6", "MP5", "Feature Gym", "Outdoor Tennis", "Outdoor Pickleball"],
            overCapacity: ["MAC Court": "54/50", "Atrium Track (3rd Floor)": "11/10", "Scifres": "31/25"],
            newest: "2026-02-06T21:12:41.077"),
    ]

    @Test(
        "each Purdue answer: 35 zones under Operations, names trimmed, its closed and over-capacity zones",
        .enabled(if: Prerequisite.runs(VendorFixtures.present && VendorFixtures.hasTZData)),
        arguments: purdueFacts)
    func purdueAnswer(_ facts: PurdueFacts) async throws {
        let body = try VendorFixtures.bytes(facts.file)
        let eastern = try VendorFixtures.zone("America/Indiana/Indianapolis")
        let found = try await zones(body, zone: eastern)
        #expect(found.count == 35)
        #expect(Set(found.map(\.id)).count == 35)
        #expect(Set(found.compactMap(\.group)) == ["Operations"])
        // 7 names end in a space in the bytes; none does once read.
        let raw = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
        #expect(raw.filter { ($0["LocationName"] as? String)?.hasSuffix(" ") == true }.count == 7)
        #expect(
            found.allSatisfy { $0.name == $0.name.trimmingCharacters(in: .whitespaces) && !$0.name.isEmpty })
        #expect(Set(found.filter(\.isClosed).map(\.name)) == facts.closed)
        let over = found.filter(\.isOverCapacity)
        #expect(
            Dictionary(
                uniqueKeysWithValues: over.map {
                    ($0.name, "\($0.reading!.occupancy)/\($0.reading!.capacity)")
                })
                == facts.overCapacity)
        // Over capacity is shown as it is: Scifres 31 of 25 is 124 %, not 100.
        for zone in over {
            let reading = try #require(zone.reading)
            #expect(reading.unclampedPercent == reading.occupancy * 100 / reading.capacity)
            #expect(reading.unclampedPercent > 100)
        }
        // Every zone has a figure (no capacity 0, no null count in Purdue's answers) and a source time.
        #expect(found.allSatisfy { $0.reading != nil && $0.sourceTime != nil })
        let newest = try #require(GoBoardAnswer.localTime(facts.newest, zone: eastern))
        #expect(found.compactMap(\.sourceTime).max() == newest)
        // Count and capacity are LastCount and TotalCapacity, whatever the always-0 fields say.
        for (entry, zone) in zip(raw, found) {
            #expect(zone.reading?.occupancy == entry["LastCount"] as? Int)
            #expect(zone.reading?.capacity == entry["TotalCapacity"] as? Int)
            #expect(entry["PercetageCapacity"] as? Int == 0 && entry["CountOfParticipants"] as? Int == 0)
        }
    }

    @Test(
        "the over-capacity answer: TREC is closed and still carries its stale count of 4, a day old",
        .enabled(if: Prerequisite.runs(VendorFixtures.present && VendorFixtures.hasTZData)))
    func closedWithCount() async throws {
        let eastern = try VendorFixtures.zone("America/Indiana/Indianapolis")
        let found = try await zones(try VendorFixtures.bytes(VendorFixtures.purdueAnswers[2]), zone: eastern)
        let trec = try #require(found.first { $0.name == "TREC" })
        #expect(trec.isClosed)
        #expect(trec.reading?.occupancy == 4)
        // 2026-02-05T23:31:37.013 Eastern (UTC-5) is 2026-02-06T04:31:37.013Z.
        let expected = Date(timeIntervalSince1970: 1_770_352_297.013)
        #expect(abs(try #require(trec.sourceTime).timeIntervalSince(expected)) < 0.0005)
    }

    @Test(
        "the overnight answer: a time with no fraction (Mindfulness Room, 21:12:29) reads to the second",
        .enabled(if: Prerequisite.runs(VendorFixtures.present && VendorFixtures.hasTZData)))
    func noFraction() async throws {
        let eastern = try VendorFixtures.zone("America/Indiana/Indianapolis")
        let found = try await zones(try VendorFixtures.bytes(VendorFixtures.purdueAnswers[3]), zone: eastern)
        let room = try #require(found.first { $0.name == "Mindfulness Room" })
        // 2026-02-06T21:12:29 EST = 2026-02-07T02:12:29Z.
        #expect(room.sourceTime == Date(timeIntervalSince1970: 1_770_430_349))
    }

    @Test(
        "the UW-Madison log's two polls rebuilt into answers: 27 zones in two buildings, closed zones, and source times as the collector converted them from Central time",
        .enabled(if: Prerequisite.runs(VendorFixtures.present && VendorFixtures.hasTZData)))
    func uwMadison() async throws {
        let polls = VendorFixtures.polls(try VendorFixtures.csv(VendorFixtures.uwLog), by: "observed_at_utc")
        #expect(polls.count == 2)
        let central = try VendorFixtures.zone("America/Chicago")
        let expectedClosed: [Set<String>] = [
            ["Bakke Mount Mendota"], ["Bakke Mount Mendota", "Bakke Cove Pool"],
        ]
        for (index, poll) in polls.enumerated() {
            let found = try await zones(
                try VendorFixtures.goboardAnswer(fromUWPoll: poll.rows), zone: central)
            #expect(found.count == 27)
            #expect(found.filter { $0.group == "Nicholas Recreation Center" }.count == 11)
            #expect(found.filter { $0.group == "Bakke Recreation & Wellbeing Center" }.count == 16)
            #expect(Set(found.filter(\.isClosed).map(\.name)) == expectedClosed[index])
            for (row, zone) in zip(poll.rows, found) {
                #expect(zone.id == row["location_id"])
                #expect(zone.reading?.occupancy == Int(row["count"] ?? ""))
                // The collector's own UTC conversion (Python's fromisoformat, America/Chicago).
                let utc = try #require(row["source_updated_at_utc"])
                #expect(utc.hasSuffix("+00:00"))
                let converted = try #require(
                    GoBoardAnswer.localTime(String(utc.dropLast(6)), zone: .fixed(hours: 0)))
                #expect(
                    abs(try #require(zone.sourceTime).timeIntervalSince(converted)) < 0.0005, "\(zone.name)")
                // pct_full is count / capacity, as the percentage read here.
                if let fraction = Double(row["pct_full"] ?? ""), let reading = zone.reading {
                    #expect(abs(Double(reading.occupancy) / Double(reading.capacity) - fraction) < 0.0001)
                }
            }
        }
    }
}

@Suite("GoBoard's fields where the fixtures have no example")
struct GoBoardFieldTests {
    static let zone = LocalTimeZone.fixed(hours: -5)

    private func entry(_ fields: String) -> [UInt8] {
        Array(("[{\"LocationId\":1,\"LocationName\":\"Gym \",\"FacilityName\":\"Rec\"" + fields + "}]").utf8)
    }

    @Test(
        "capacity 0 or null, a null or missing count: no figure, never 0 %",
        arguments: [
            (",\"TotalCapacity\":0,\"LastCount\":5", VendorZone.MissingFigure.noCapacity),
            (",\"TotalCapacity\":null,\"LastCount\":5", .noCapacity),
            (",\"TotalCapacity\":50,\"LastCount\":null", .noCount),
            (",\"TotalCapacity\":50", .noCount),
            (",\"TotalCapacity\":50,\"LastCount\":-2", .negativeCount),
        ])
    func noFigure(_ fields: String, _ why: VendorZone.MissingFigure) throws {
        let zone = try #require(try GoBoardAnswer.zones(in: entry(fields), zone: Self.zone).first)
        #expect(zone.reading == nil)
        #expect(zone.missingFigure == why)
        #expect(zone.name == "Gym")
    }

    @Test(
        "IsClosed is closed whatever the count; null or absent IsClosed is not closed",
        arguments: [
            (",\"TotalCapacity\":50,\"LastCount\":4,\"IsClosed\":true", true),
            (",\"TotalCapacity\":50,\"LastCount\":0,\"IsClosed\":true", true),
            (",\"TotalCapacity\":50,\"LastCount\":4,\"IsClosed\":null", false),
            (",\"TotalCapacity\":50,\"LastCount\":4", false),
        ])
    func closed(_ fields: String, _ closed: Bool) throws {
        let zone = try #require(try GoBoardAnswer.zones(in: entry(fields), zone: Self.zone).first)
        #expect(zone.isClosed == closed)
        #expect(zone.reading?.occupancy == (fields.contains("\"LastCount\":4") ? 4 : 0))
    }

    @Test("a null LastUpdatedDateAndTime is no source time; the zone still reads")
    func nullTime() throws {
        let zone = try #require(
            try GoBoardAnswer.zones(
                in: entry(",\"TotalCapacity\":50,\"LastCount\":4,\"LastUpdatedDateAndTime\":null"),
                zone: Self.zone
            ).first)
        #expect(zone.sourceTime == nil)
        #expect(zone.reading?.occupancy == 4)
    }

    @Test("an entry without LocationId is left out; the others read")
    func noLocationID() throws {
        let body = Array(
            "[{\"LocationName\":\"x\"},{\"LocationId\":7,\"TotalCapacity\":10,\"LastCount\":1}]".utf8)
        #expect(try GoBoardAnswer.zones(in: body, zone: Self.zone).map(\.id) == ["7"])
    }

    /// Every fractional-digit count GoBoard writes (none to three, trailing zeros dropped), the tolerant
    /// reader's up to seven, over a spread of moments in both halves of the year.
    @Test("every fractional-digit count, 0 to 7, reads to the moment it writes", arguments: 0...7)
    func fractionDigits(_ count: Int) throws {
        var generator = SeededGenerator(seed: UInt64(100 + count))
        let eastern = LocalTimeZone.usEastern
        for _ in 0..<300 {
            // Whole milliseconds between 2020 and 2030, away from the hour a clock change repeats.
            let milliseconds = Int64.random(in: 1_577_836_800_000...1_893_456_000_000, using: &generator)
            let moment = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let day = eastern.day(of: moment).date
            let (hour, minute) = eastern.clock(of: moment)
            let second =
                Int((moment.timeIntervalSince1970 + Double(eastern.offsetSeconds(moment))).rounded(.down))
                % 60
            let millis = Int(milliseconds % 1000)
            var text = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", day.year, day.month, day.day, hour, minute, second)
            var expected = moment.timeIntervalSince1970 - Double(millis) / 1000
            if count > 0 {
                let digits = String(format: "%03d", millis) + String(repeating: "0", count: 4)
                text += "." + digits.prefix(count)
                expected += Double(Int(digits.prefix(min(count, 3))) ?? 0) / pow(10, Double(min(count, 3)))
            }
            let read = try #require(GoBoardAnswer.localTime(text, zone: eastern), "\(text)")
            // An hour the autumn change repeats is read as one of its two moments.
            let gap = abs(read.timeIntervalSince1970 - expected)
            #expect(gap < 0.0005 || abs(gap - 3600) < 0.0005, "\(text)")
        }
    }

    @Test(
        "anything but a naive ISO time is no time",
        arguments: [
            "", "2026-02-06", "2026-02-06 21:12:29", "2026-02-06T21:12:29Z", "2026-02-06T21:12:29+01:00",
            "2026-02-06T21:12:29.", "2026-02-06T21:12:29.12345678", "2026-02-30T21:12:29",
            "2026-13-06T21:12:29",
            "2026-02-06T24:00:00", "2026-02-06T21:60:00", "2026-02-06T21:12:2x",
        ])
    func notATime(_ text: String) {
        #expect(GoBoardAnswer.localTime(text, zone: .usEastern) == nil)
    }
}

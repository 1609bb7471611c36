import Foundation
import Storage
import TestSupport
import Testing

@testable import History

private let now = Date(timeIntervalSince1970: 1_795_287_600)

private func reading(
    _ facility: String = "mccomas", at offset: Double = 0, source: Double? = nil, occupancy: Int = 120
)
    -> HistoryReading
{
    HistoryReading(
        facility: facility, facilityID: "id", fetchedAt: now.addingTimeInterval(offset),
        sourceTime: source.map { now.addingTimeInterval($0) }, occupancy: occupancy, capacity: 600)
}

@Suite("The history database")
struct HistoryStoreTests {
    @Test("records attempts and readings, reads them back; the file is 0600 in a 0700 directory")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/state/gymcard/history.sqlite3"
        let store = try HistoryStore(path: path)
        #expect(try store.record(HistoryAttempt(at: now, status: .success), readings: [reading()]) == 1)
        try store.record(
            HistoryAttempt(at: now.addingTimeInterval(300), status: .failed, error: "refused"), readings: [])
        let readings = try store.readings(from: now.addingTimeInterval(-60), to: now.addingTimeInterval(60))
        #expect(readings == [reading()])
        let attempts = try store.attempts(from: now.addingTimeInterval(-60), to: now.addingTimeInterval(600))
        #expect(attempts.map(\.status) == [.success, .failed])
        #expect(attempts.last?.error == "refused")
        #expect(try store.lastTriedAttempt()?.status == .failed)
        #expect(try store.extent(facility: "mccomas").count == 1)
        let file = try FileManager.default.attributesOfItem(atPath: path)
        #expect(file[.posixPermissions] as? Int == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path + "/state/gymcard")
        #expect(folder[.posixPermissions] as? Int == 0o700)
    }

    @Test("a reading is not stored twice: the same fetch time, or the same source time")
    func duplicates() throws {
        let directory = try TemporaryDirectory()
        let store = try HistoryStore(path: directory.path + "/history.sqlite3")
        #expect(
            try store.record(HistoryAttempt(at: now, status: .success), readings: [reading(source: -120)])
                == 1)
        // Five minutes later the page still shows the reading it showed: same source time, not stored.
        #expect(
            try store.record(
                HistoryAttempt(at: now, status: .success), readings: [reading(at: 300, source: -120)]) == 0)
        #expect(
            try store.record(
                HistoryAttempt(at: now, status: .success), readings: [reading(at: 600, source: 180)]) == 1)
        #expect(try store.importReadings([reading(), reading(at: 900)]) == 1)
        #expect(try store.extent(facility: "mccomas").count == 3)
        #expect(
            try store.attempts(from: now, to: now.addingTimeInterval(1)).count == 3, "every attempt is kept")
    }

    @Test("a damaged file is moved aside with one warning and a new history is started")
    func damaged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/history.sqlite3"
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        let store = try HistoryStore(path: path)
        #expect(store.warnings.count == 1)
        #expect(store.warnings.first?.contains("was damaged; it was moved to \(path).corrupt-") == true)
        #expect(try store.record(HistoryAttempt(at: now, status: .success), readings: [reading()]) == 1)
        let names = try directory.contents()
        #expect(names.contains { $0.hasPrefix("history.sqlite3.corrupt-") })
        let aside = try #require(
            names.first { $0.hasPrefix("history.sqlite3.corrupt-") && !$0.hasSuffix("-wal") })
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + aside))
                == Data(repeating: 0x5A, count: 8192))
    }

    @Test("two damaged histories moved aside in the same second: both kept, under different names")
    func damagedTwiceInOneSecond() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/history.sqlite3"
        let second: @Sendable () -> Date = { now }
        var warnings: [String] = []
        for byte: UInt8 in [0x5A, 0xA5, 0x3C] {
            // Damage the new history too (its WAL would otherwise still hold the first page).
            for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
            try Data(repeating: byte, count: 8192).write(to: URL(fileURLWithPath: path))
            let store = try HistoryStore(path: path, clock: second)
            warnings += store.warnings
        }
        #expect(warnings.count == 3)
        let aside = try directory.contents().filter { $0.contains(".corrupt-") && !$0.hasSuffix("-wal") }
            .filter { !$0.hasSuffix("-shm") }
        #expect(aside.count == 3, "\(aside)")
        let kept = try Set(
            aside.map { try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + $0)) })
        #expect(kept == Set([0x5A, 0xA5, 0x3C].map { Data(repeating: $0, count: 8192) }))
        for name in aside {
            #expect(warnings.contains { $0.contains("moved to \(directory.path)/\(name) ") })
        }
    }

    @Test("a second gymcard that found the same damage opens the new history instead of moving it aside")
    func damageFoundTwice() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/history.sqlite3"
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        let damaged = try #require(FileIdentity(path))
        let first = try HistoryStore(path: path)
        #expect(try first.record(HistoryAttempt(at: now, status: .success), readings: [reading()]) == 1)
        // The second found the same file damaged before the first moved it, and comes now.
        var warnings: [String] = []
        let (connection, identity) = try HistoryStore.replaceDamaged(
            path, found: damaged, clock: { now }, warnings: &warnings)
        #expect(warnings.isEmpty)
        #expect(identity == FileIdentity(path))
        #expect(try connection.integer("SELECT count(*) FROM readings") == 1)
        #expect(
            try directory.contents().filter { $0.contains(".corrupt-") && !$0.hasSuffix("-wal") }.count == 1)
    }

    @Test("a history from a newer gymcard is refused, not migrated or moved")
    func newer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/history.sqlite3"
        do {
            let store = try HistoryStore(path: path)
            _ = store
        }
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("PRAGMA user_version = 99")
        #expect(throws: HistoryError.newerVersion(path: path, version: 99)) { try HistoryStore(path: path) }
        #expect(try directory.contents().filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test("reading a history that is not there gives nothing and creates nothing")
    func absent() throws {
        let directory = try TemporaryDirectory()
        #expect(try HistoryStore.openIfPresent(path: directory.path + "/history.sqlite3") == nil)
        #expect(try directory.contents().isEmpty)
    }
}

@Suite("History export and import")
struct HistoryExchangeTests {
    let readings = [
        reading(), reading("war-memorial", at: 1, source: -30, occupancy: 300),
        HistoryReading(
            facility: "bouldering-wall", fetchedAt: now, occupancy: 0, capacity: 8, status: .closed),
    ]

    @Test("CSV and JSON round trip, header and field order as documented")
    func roundTrip() throws {
        let csv = HistoryExchange.csv(readings)
        #expect(csv.hasPrefix("facility,fetched_at,source_time,occupancy,capacity,status\n"))
        #expect(csv.contains("\nmccomas,2026-11-21T19:00:00Z,,120,600,ok\n"))
        #expect(csv.contains("\nwar-memorial,2026-11-21T19:00:01Z,2026-11-21T18:59:30Z,300,600,ok\n"))
        #expect(csv.contains("\nbouldering-wall,2026-11-21T19:00:00Z,,0,8,closed\n"))
        #expect(try HistoryExchange.parse(Array(csv.utf8)).map(\.occupancy) == readings.map(\.occupancy))
        // The same CSV with Windows line ends, as Excel saves it.
        let crlf = csv.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try HistoryExchange.parse(Array(crlf.utf8)).map(\.occupancy) == readings.map(\.occupancy))
        let json = HistoryExchange.json(readings)
        let parsed = try HistoryExchange.parse(Array(json.utf8))
        #expect(parsed.map(\.fetchedAt) == readings.map(\.fetchedAt))
        #expect(parsed.map(\.sourceTime) == readings.map(\.sourceTime))
        #expect(parsed.map(\.status) == readings.map(\.status))
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(
            objects?.first?.keys.sorted() == [
                "capacity", "facility", "fetched_at", "occupancy", "source_time", "status",
            ])
        #expect(try HistoryExchange.parse(Array(HistoryExchange.json([]).utf8)).isEmpty)
    }

    @Test(
        "a malformed line is reported with its line number (the header is line 1)",
        arguments: [
            ("facility,fetched_at\n", 1, "header"),
            (
                "\(HistoryExchange.csvHeader)\nmccomas,2026-11-21T19:00:00Z,,1,600,ok\nmccomas,yesterday,,1,600,ok\n",
                3, "fetched_at"
            ),
            ("\(HistoryExchange.csvHeader)\nmccomas,2026-11-21T19:00:00Z,,12a,600,ok\n", 2, "occupancy"),
            ("\(HistoryExchange.csvHeader)\nmccomas,2026-11-21T19:00:00Z,,12,0,ok\n", 2, "capacity"),
            ("\(HistoryExchange.csvHeader)\nmccomas,2026-11-21T19:00:00Z,,12,600,open\n", 2, "status"),
            ("\(HistoryExchange.csvHeader)\nmc comas,2026-11-21T19:00:00Z,,12,600,ok\n", 2, "facility"),
            ("\(HistoryExchange.csvHeader)\n\nmccomas,2026-11-21T19:00:00Z,,12,600\n", 3, "5 fields"),
            (
                "[\n{\"facility\": \"a\", \"fetched_at\": \"2026-11-21T19:00:00Z\", \"occupancy\": 1, \"capacity\": 9, \"status\": \"ok\"},\n{\"facility\": \"a\", \"fetched_at\": \"2026-11-21T19:05:00Z\", \"occupancy\": -1, \"capacity\": 9, \"status\": \"ok\"}\n]",
                3, "occupancy"
            ),
            (
                "[\n{\"facility\": \"a\", \"fetched_at\": \"2026-11-21T19:00:00Z\", \"occupancy\": \"one\", \"capacity\": 9, \"status\": \"ok\"}\n]",
                2, "wrong type"
            ),
        ])
    func malformed(text: String, line: Int, mention: String) {
        #expect {
            try HistoryExchange.parse(Array(text.utf8))
        } throws: { error in
            guard let problem = error as? HistoryExchange.Problem else { return false }
            return problem.line == line && problem.reason.contains(mention)
        }
    }
}

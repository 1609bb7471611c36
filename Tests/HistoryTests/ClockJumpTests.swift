import Foundation
import TestSupport
import Testing

@testable import History

/// 2026-11-20 15:00 UTC.
private let now = Date(timeIntervalSince1970: 1_795_186_800)

private func reading(at offset: Double, occupancy: Int, source: Double? = nil) -> HistoryReading {
    HistoryReading(
        facility: "mccomas", facilityID: "id", fetchedAt: now.addingTimeInterval(offset),
        sourceTime: source.map { now.addingTimeInterval($0) }, occupancy: occupancy, capacity: 600)
}

private let everything = (from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9))

@Suite("The history across a clock set back or ahead")
struct HistoryClockJumpTests {
    @Test(
        "a clock set back reads again at seconds already stored: what it reads is kept, the same reading is not"
    )
    func setBack() throws {
        let directory = try TemporaryDirectory()
        let store = try HistoryStore(path: directory.path + "/history.sqlite3")
        // An hour of samples with the clock an hour ahead (a hardware clock kept in local time), then the
        // same seconds again once it is set right: the gym has filled up since.
        for minute in stride(from: 0, to: 60, by: 5) {
            try store.record(
                HistoryAttempt(at: now.addingTimeInterval(Double(minute) * 60), status: .success),
                readings: [reading(at: Double(minute) * 60, occupancy: 100)])
        }
        for minute in stride(from: 0, to: 60, by: 5) {
            let added = try store.record(
                HistoryAttempt(at: now.addingTimeInterval(Double(minute) * 60), status: .success),
                readings: [reading(at: Double(minute) * 60, occupancy: 200 + minute)])
            #expect(added == 1, "minute \(minute)")
        }
        // The very same reading again (a repeated import, say) is not stored twice, nor is one whose
        // source time is already there.
        #expect(try store.importReadings([reading(at: 300, occupancy: 205)]) == 0)
        #expect(
            try store.record(
                HistoryAttempt(at: now, status: .success), readings: [reading(at: 0, occupancy: 200)]) == 0)
        #expect(try store.importReadings([reading(at: 7200, occupancy: 50, source: 7000)]) == 1)
        #expect(try store.importReadings([reading(at: 7500, occupancy: 50, source: 7000)]) == 0)
        let stored = try store.readings(facility: "mccomas", from: everything.from, to: everything.to)
        #expect(stored.count == 25)
        #expect(stored.filter { $0.occupancy >= 200 }.count == 12)
    }

    @Test("the last attempt tried is the last recorded, not the one stamped latest by a clock that was ahead")
    func lastTried() throws {
        let directory = try TemporaryDirectory()
        let store = try HistoryStore(path: directory.path + "/history.sqlite3")
        try store.record(
            HistoryAttempt(at: now.addingTimeInterval(6 * 86_400), status: .success), readings: [])
        try store.record(HistoryAttempt(at: now, status: .failed, error: "refused"), readings: [])
        try store.record(HistoryAttempt(at: now.addingTimeInterval(60), status: .skipped), readings: [])
        #expect(try store.lastTriedAttempt() == HistoryAttempt(at: now, status: .failed, error: "refused"))
    }

    @Test("a history of the first version is brought up to date in place, its readings kept")
    func migration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/history.sqlite3"
        do {
            let connection = try SQLiteConnection(path: path, create: true)
            try connection.execute(HistoryStore.migrations[0] + "; PRAGMA user_version = 1")
            try connection.execute(
                """
                INSERT INTO readings (facility, fetched_at, occupancy, capacity, status)
                VALUES ('mccomas', \(Int(now.timeIntervalSince1970)), 100, 600, 'ok')
                """)
        }
        let store = try HistoryStore(path: path)
        #expect(try SQLiteConnection(path: path, create: false).integer("PRAGMA user_version") == 2)
        #expect(try store.importReadings([reading(at: 0, occupancy: 100)]) == 0)
        #expect(try store.importReadings([reading(at: 0, occupancy: 210)]) == 1)
        #expect(try store.extent(facility: "mccomas").count == 2)
    }
}

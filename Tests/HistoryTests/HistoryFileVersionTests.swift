import Foundation
import TestSupport
import Testing

@testable import History

private let noon = Date(timeIntervalSince1970: 1_795_287_600)

@Suite("The history's version, told from outside")
struct HistoryFileVersionTests {
    @Test("every write changes it, reading does not; settled only once the last write is 2 s old")
    func changesWithWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/history.sqlite3"
        #expect(HistoryFileVersion.current(path: path, realNow: Date()) == nil)
        let store = try HistoryStore(path: path)
        var versions: [String] = []
        func version() throws -> HistoryFileVersion {
            try #require(HistoryFileVersion.current(path: path, realNow: Date()))
        }
        versions.append(try version().text)
        // Three writes in quick succession, each of one reading: recorded, imported, recorded again.
        let reading = HistoryReading(facility: "mccomas", fetchedAt: noon, occupancy: 120, capacity: 600)
        try store.record(HistoryAttempt(at: noon, status: .success), readings: [reading])
        versions.append(try version().text)
        var other = reading
        other.fetchedAt = noon.addingTimeInterval(300)
        #expect(try store.importReadings([other]) == 1)
        versions.append(try version().text)
        other.fetchedAt = noon.addingTimeInterval(600)
        try store.record(HistoryAttempt(at: other.fetchedAt, status: .success), readings: [other])
        versions.append(try version().text)
        #expect(Set(versions).count == versions.count, "\(versions)")

        // Reading, by this connection and by a new one, leaves it as it was.
        let before = try version()
        _ = try store.readings(from: noon, to: noon.addingTimeInterval(3600))
        let reader = try #require(try HistoryStore.openIfPresent(path: path))
        _ = try reader.readings(facility: "mccomas", from: noon, to: noon.addingTimeInterval(3600))
        #expect(try version().text == before.text)

        #expect(!before.isSettled)
        let later = try #require(
            HistoryFileVersion.current(path: path, realNow: Date().addingTimeInterval(3)))
        #expect(later.isSettled && later.text == before.text)
    }
}

import CampusFeature
import CardFeature
import Foundation
import GymcardCore
import History
import Occupancy
import TestServer
import TestSupport
import Testing
import Trends

/// The status bar's usual percent, kept current by the processes that write the history.
@Suite struct UsualNowFileTests {
    @Test func aRecordedPollKeepsTheStatusBarsUsualCurrentAndAWaitsPollLeavesItAlone() async throws {
        let campus = try await Campus(["mccomas": 100, "war-memorial": 30, "bouldering-wall": 1])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: noon)
        let cache = HistoryFiles.usualNowCachePath(context.directories, campus: nil)
        let history = HistoryFiles.path(context.directories, campus: nil)
        let settings = try context.config.occupancySettings()
        var wait = try OccupancyPoll(settings: settings, context: context)
        wait.keepsUsualCurrent = false
        _ = try await wait.poll(fetcher: Campus.fetcher)
        #expect(UsualNowCache.load(cache) == nil, "a poll of some facilities leaves it alone")

        _ = try await OccupancyPoll(settings: settings, context: context).poll(fetcher: Campus.fetcher)
        let kept = try #require(UsualNowCache.load(cache))
        #expect(kept.key.version == HistoryFileVersion.current(path: history, realNow: Date())?.text)
        #expect(kept.usual.facilities == OccupancySettings.virginiaTech.facilities.map(\.key))
        // What it keeps is what the history says now (too little history: no usual value yet).
        #expect(kept.usual.percents.isEmpty)
        #expect(
            UsualNowFile.usualPercents(
                OccupancySettings.virginiaTech.facilities, settings: .virginiaTech, context: context
            )
            .isEmpty)
    }

    @Test func anImportKeepsItCurrentWithTheImportedReadings() throws {
        let home = try TemporaryDirectory()
        let context = try Context(
            environment: [
                "HOME": home.path, "XDG_STATE_HOME": home.path + "/state",
                "XDG_CACHE_HOME": home.path + "/cache",
                "GYMCARD_TEST_NOW": "2026-11-21T19:00:00Z",
            ],
            online: nil
        ) { _ in }
        // Saturdays 14:00–14:30 in New York, full, on two days: a usual value of 100%.
        let rows = ["2026-11-07", "2026-11-14"].flatMap { day in
            (0..<6).map { "mccomas,\(day)T19:\($0 * 5 + 1 < 10 ? "0" : "")\($0 * 5 + 1):00Z,,600,600,ok" }
        }
        let file = home.path + "/busy.csv"
        try (HistoryExchange.csvHeader + "\n" + rows.joined(separator: "\n") + "\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        _ = try HistoryImport.run(file, settings: .virginiaTech, context: context)
        let kept = try #require(
            UsualNowCache.load(HistoryFiles.usualNowCachePath(context.directories, campus: nil)))
        #expect(kept.usual.percents == ["mccomas": 100])
        let history = HistoryFiles.path(context.directories, campus: nil)
        #expect(kept.key.version == HistoryFileVersion.current(path: history, realNow: Date())?.text)
    }
}

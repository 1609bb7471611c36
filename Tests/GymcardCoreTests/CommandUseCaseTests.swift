import CampusFeature
import CardFeature
import Codabar
import Console
import Foundation
import GymcardCore
import Occupancy
import Scanner
import Symbologies
import Symbols
import TestServer
import TestSupport
import Testing

private struct NotStored: Error, CustomStringConvertible {
    var description: String { "not stored" }
}

/// What `scan`, `wait` and `show` decide before they print, in-process: the order of several photos,
/// the facility waited for, and which drawing settings apply.
@Suite struct CommandUseCaseTests {
    @Test func severalPhotosAreScannedInOrderAndOnlyTheFirstThatStoresIsStored() async throws {
        let directory = try TemporaryDirectory()
        for (name, id) in [("one.png", "905123456"), ("two.png", "A1234B")] {
            let symbol = try CardSymbol.symbol(for: id, warn: { _ in })
            try NamedOutput.write(
                SymbolFile.png.bytes(of: symbol, style: try BarcodeStyle()), to: directory.path + "/" + name)
        }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: directory.path + "/notes.png"))
        let paths = ["missing.png", "one.png", "notes.png", "two.png", "one.png"].map {
            directory.path + "/" + $0
        }
        let (printed, stored, failed) = try await OffThePool.compute {
            var printed: [String] = []
            var stored: [String] = []
            var failed: [String] = []
            var refusals = 1
            try PhotoScan.scanEach(
                paths, with: BarcodeScanner(),
                output: PhotoScan.Output(json: false, all: false, namesPhotos: true),
                save: { content in
                    // The first photo that reads cannot be stored (a wrong passphrase, say): the next is.
                    guard refusals == 0 else {
                        refusals -= 1
                        throw NotStored()
                    }
                    stored.append(content.text)
                }, emit: { printed.append($0) },
                failed: { name, error in failed.append("\(name.split(separator: "/").last ?? ""): \(error)") }
            )
            return (printed, stored, failed)
        }
        #expect(
            printed.map { $0.split(separator: "/").last ?? "" } == [
                "one.png: A905123456B", "two.png: A1234B", "one.png: A905123456B",
            ])
        #expect(stored == ["A1234B"])
        #expect(failed.count == 3)
        #expect(failed[0].hasPrefix("missing.png: "))
        #expect(failed[1] == "one.png: not stored")
        #expect(failed[2].hasPrefix("notes.png: "))
    }

    @Test func aWaitIsOnTheFacilityNamedAndFetchesOnlyIt() async throws {
        let campus = try await Campus(["mccomas": 500, "war-memorial": 30, "bouldering-wall": 1])
        defer { Task { await campus.server.stop() } }
        let home = try TemporaryDirectory()
        let context = try campus.context(home, now: noon)
        let settings = try context.config.occupancySettings()
        let session = try WaitSession(
            settings: settings, facility: "mcc",
            condition: WaitCondition(threshold: .percent(30), holdSeconds: 0),
            intervalSeconds: 120, timeoutSeconds: 30)
        #expect(session.settings.facilities.map(\.key) == ["mccomas"])
        var lines: [String] = []
        var over = 0
        let ending = try await session.run(
            context, demo: false, notify: false, timeout: "30s", redraws: false, fetcher: { Campus.fetcher },
            warn: { _ in }, show: { lines.append($0) }, over: { over += 1 })
        #expect(ending.end == .timedOut(latest: OccupancyReading(occupancy: 500, capacity: 600)))
        #expect(ending.message == "McComas Hall did not stay below 30% within 30s (it is at 83%)")
        #expect(over == 1 && lines.isEmpty)
        #expect(campus.requests.withLock { $0 } == 1)
        // The first facility when none is named; a number of people where only a percentage is shown is refused.
        let first = try WaitSession(
            settings: settings, facility: nil,
            condition: WaitCondition(threshold: .people(100), holdSeconds: 0),
            intervalSeconds: 120, timeoutSeconds: nil)
        #expect(first.loop.facility.key == settings.facilities[0].key)
        var percentOnly = settings
        percentOnly.facilities[1].measure = .percent
        #expect(throws: WaitProblem.onlyPercent(facility: "McComas Hall")) {
            try WaitSession(
                settings: percentOnly, facility: "McComas Hall",
                condition: WaitCondition(threshold: .people(100), holdSeconds: 0), intervalSeconds: 120,
                timeoutSeconds: nil)
        }
        #expect(throws: FacilityLookupProblem.self) {
            try WaitSession(
                settings: settings, facility: "gym",
                condition: WaitCondition(threshold: .percent(30), holdSeconds: 0),
                intervalSeconds: 120, timeoutSeconds: nil)
        }
    }

    @Test func settingsThatDoNotApplyToWhatIsDrawnAreRefused() throws {
        let plain = SymbolSettings()
        #expect(plain.given.isEmpty)
        try plain.checkQROnly()
        try plain.check(for: .code128)
        #expect(throws: SymbolSettingsProblem.notForQR(.barHeight)) {
            try SymbolSettings(barHeight: 80).checkQROnly()
        }
        // The check character alone is fine for the QR code, which carries the Codabar text.
        try SymbolSettings(checkCharacter: true).checkQROnly()
        #expect(throws: SymbolSettingsProblem.onlyCodabar(.checkCharacter, drawnAs: .code128)) {
            try SymbolSettings(ratio: 2.5, checkCharacter: true).check(for: .code128)
        }
        try SymbolSettings(ratio: 2.5, checkCharacter: true).check(for: .codabar)
        #expect(throws: SymbolSettingsProblem.self) { try SymbolSettings(ratio: 3.5).style() }
        #expect(throws: SymbolFileProblem.self) {
            try SymbolSettings(narrowBarWidth: 32, barHeight: 1000).style()
        }
        #expect(try SymbolSettings(narrowBarWidth: 3, showsText: true).style().narrowBarWidth == 3)

        let drawn = try SymbolSettings(checkCharacter: true).content(
            id: "A37859B", symbology: nil, stored: { fatalError("the stored card is not asked for") },
            warn: { _ in })
        #expect(drawn.content.text == "A37859+B" && drawn.label == nil)
        #expect(throws: SymbolSettingsProblem.onlyCodabar(.checkCharacter, drawnAs: .code128)) {
            try SymbolSettings(checkCharacter: true).content(
                id: "GYM42", symbology: .code128, stored: { fatalError("not asked for") }, warn: { _ in })
        }
        #expect(throws: SymbolSettingsProblem.symbologyForStoredCard) {
            try SymbolSettings().content(
                id: nil, symbology: .qr, stored: { fatalError("not asked for") }, warn: { _ in })
        }
    }

    @Test func tmuxPassesImagesOnlyWhenAllowPassthroughIsOn() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path + "/tmux"
        let tmux: @Sendable ([String]) -> (status: Int32, output: String)? = { arguments in
            ChildProcess.statusAndOutput(["tmux", "-S", socket] + arguments.dropFirst())
        }
        // The run ends though tmux leaves its server behind (10 s at most, so that a run that never ends
        // fails here).
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = tmux(["tmux", "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24"])
            started.signal()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        defer {
            _ = tmux(["tmux", "kill-server"])
            // Until the server is gone: its socket is in the folder.
            withExtendedLifetime(directory) {}
        }
        #expect(!ChildProcess.tmuxPassesImages(run: tmux))
        _ = tmux(["tmux", "set", "-g", "allow-passthrough", "on"])
        #expect(ChildProcess.tmuxPassesImages(run: tmux))
        // No tmux server to ask: no.
        let none = directory.path + "/none"
        #expect(
            !ChildProcess.tmuxPassesImages {
                ChildProcess.statusAndOutput(["tmux", "-S", none] + $0.dropFirst())
            })
        // The server started from a Dispatch worker ends on kill-server (its signals are not blocked).
        _ = tmux(["tmux", "kill-server"])
        var running = true
        for _ in 0..<100 where running {
            try await Task.sleep(for: .milliseconds(100))
            running = tmux(["tmux", "has-session"])?.status == 0
        }
        #expect(!running)
    }
}

import CardVault
import Codabar
import Collector
import DynamicLoading
import Foundation
import History
import Storage
import TestSupport
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import Diagnosis
@testable import GymcardCore

/// `doctor`'s checks in-process, on real files in temporary XDG folders; the programs it asks
/// (`systemctl --user is-active`, `crontab -l`) answer as the test says, as they would on a machine
/// with or without a user manager.
@Suite struct DoctorTests {
    static let now = "2026-11-25T17:00:00Z"

    /// A context over a temporary XDG tree in `home`, at `now` (other suites use it too).
    static func context(_ home: TemporaryDirectory) throws -> Context {
        try Context(
            environment: [
                "HOME": home.path, "XDG_DATA_HOME": home.path + "/data",
                "XDG_CONFIG_HOME": home.path + "/config",
                "XDG_STATE_HOME": home.path + "/state", "XDG_CACHE_HOME": home.path + "/cache",
                "GYMCARD_TEST_NOW": now,
            ], online: nil
        ) { _ in }
    }

    /// No program installed: every `run` finds nothing.
    private static func nothingInstalled(_: [String]) -> (status: Int32, output: String)? { nil }

    private static let loading = [
        Doctor.Library(
            SystemLibrary("libfake", "libfake.so.0", "fake", "nothing")
        ) { true }
    ]

    private static func check(_ checks: [Doctor.Check], _ name: String) throws -> Doctor.Check {
        try #require(checks.first { $0.name == name }, "no check named \(name) in \(checks.map(\.name))")
    }

    @Test func aNewUserHasNoProblemOnlyNotesThatSayWhatToSetUp() throws {
        let home = try TemporaryDirectory()
        let checks = Doctor.checks(
            try Self.context(home), libraries: Self.loading, run: Self.nothingInstalled)
        #expect(!Doctor.hasProblems(checks), "\(checks.filter { $0.status == .problem })")
        let card = try Self.check(checks, "card")
        #expect(card.status == .note && card.advice?.contains("gymcard set") == true)
        #expect(try Self.check(checks, "timer").advice?.contains("collect --install") == true)
        #expect(try Self.check(checks, "history").status == .note)
        #expect(try Self.check(checks, "data").detail.hasPrefix(home.path + "/data/gymcard"))
        #expect(try Self.check(checks, "campus").detail.hasPrefix("vt "))
        #expect(try Self.check(checks, "config file").status == .ok)
    }

    @Test func aLibraryThatDoesNotLoadSaysWhichPackageToInstall() throws {
        let home = try TemporaryDirectory()
        let libraries = [
            Doctor.Library(
                SystemLibrary("libscan", "libscan.so.0", "libscan0", "scan reads barcodes"),
                essential: true
            ) {
                false
            },
            Doctor.Library(
                SystemLibrary("libextra", "libextra.so.1", "libextra1", "extra photos")
            ) { false },
        ]
        let checks = Doctor.checks(try Self.context(home), libraries: libraries, run: Self.nothingInstalled)
        #expect(try Self.check(checks, "libscan").status == .problem)
        #expect(try Self.check(checks, "libscan").advice == "apt install libscan0")
        #expect(try Self.check(checks, "libextra").status == .note)
        #expect(Doctor.hasProblems(checks))
    }

    @Test func everyLibraryOfTheRegistryHasItsLineButTheGuardiansBus() {
        // The backlight guardian's sd-bus is no doctor line: a machine without logind just keeps its level.
        let expected = SystemLibrary.all.filter { $0 != .systemdBus }
        #expect(Doctor.Library.product.map(\.name) == expected.map(\.name))
        #expect(Doctor.Library.product.map(\.library.debianPackage) == expected.map(\.debianPackage))
    }

    @Test func theProductsLoadersFindTheLibrariesInstalledHere() throws {
        // This machine has every optional library (scripts/install-system-packages): each real loader loads.
        for library in Doctor.Library.product {
            let failure = library.failure()
            #expect(failure == nil, "\(library.name): \(failure.map(String.init(describing:)) ?? "")")
        }
    }

    @Test func aCardOthersCanReadIsAProblemAndItsIDIsNeverShown() throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        let store = CardStore(directories: context.directories)
        try store.save(CardRecord(symbol: try CodabarSymbol(normalizing: "905123456")), passphrase: nil)
        #expect(chmod(store.plainPath, 0o644) == 0 && chmod(store.directory, 0o755) == 0)
        let checks = Doctor.checks(context, libraries: Self.loading, run: Self.nothingInstalled)
        #expect(try Self.check(checks, "card file").advice == "chmod 600 \(store.plainPath)")
        #expect(try Self.check(checks, "card folder").advice == "chmod 700 \(store.directory)")
        #expect(try Self.check(checks, "card").advice?.contains("passphrase set") == true)
        #expect(Doctor.hasProblems(checks))
        for check in checks {
            #expect(!"\(check.detail) \(check.advice ?? "")".contains("905123456"))
            #expect(!"\(check.detail) \(check.advice ?? "")".contains("12345"))
        }
    }

    @Test func anInvalidConfigFileIsAProblemAndAnUnknownKeyANote() throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
        let path = home.path + "/config/gymcard/config.json"
        try "{\"occupancy\": ".write(toFile: path, atomically: true, encoding: .utf8)
        let broken = Doctor.checks(
            try Self.context(home), libraries: Self.loading, run: Self.nothingInstalled)
        #expect(try Self.check(broken, "config file").status == .problem)
        #expect(try Self.check(broken, "config file").detail.contains(path))

        try "{\"ocupancy\": {}}".write(toFile: path, atomically: true, encoding: .utf8)
        let unknown = Doctor.checks(
            try Self.context(home), libraries: Self.loading, run: Self.nothingInstalled)
        #expect(try Self.check(unknown, "config file").status == .ok)
        #expect(try Self.check(unknown, "unknown key").detail.contains("occupancy"))
        #expect(!Doctor.hasProblems(unknown))
    }

    @Test func anInstalledTimerThatDoesNotRunIsAProblem() throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        try Collecting.writeUnits(
            Collecting.units(executable: "/usr/bin/gymcard", campus: nil, context: context), context: context)
        let inactive = Doctor.checks(context, libraries: Self.loading) { arguments in
            arguments.starts(with: ["systemctl", "--user", "is-active"]) ? (3, "inactive\n") : nil
        }
        let timer = try Self.check(inactive, "timer")
        #expect(timer.status == .problem && timer.detail.contains("inactive"))
        #expect(timer.advice?.contains("systemctl --user enable --now gymcard-collect.timer") == true)
    }

    @Test(arguments: [(minutesAgo: 10.0, stale: false), (minutesAgo: 120.0, stale: true)])
    func aRunningTimerWhoseHistoryStoppedRecordingIsAProblem(minutesAgo: Double, stale: Bool) throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        try Collecting.writeUnits(
            Collecting.units(executable: "/usr/bin/gymcard", campus: nil, context: context), context: context)
        let store = try HistoryFiles.openForWriting(context, campus: nil)
        try store.record(
            HistoryAttempt(at: context.clock.now.addingTimeInterval(-minutesAgo * 60), status: .success),
            readings: [])
        let checks = Doctor.checks(context, libraries: Self.loading) { arguments in
            arguments.starts(with: ["systemctl"]) ? (0, "active\n") : nil
        }
        #expect(try Self.check(checks, "timer").status == .ok)
        let history = try Self.check(checks, "history")
        #expect(history.status == (stale ? .problem : .ok), "\(history)")
        #expect(
            history.detail.hasSuffix(stale ? "2 h ago, though the timer runs" : "10 min ago"),
            "\(history.detail)")
    }

    @Test(arguments: [
        ("card.age", "damaged"), ("card.json", "damaged"), ("card.json.bak", "previous card is kept"),
    ])
    func aDamagedOrMissingCardIsAProblemThatNamesRestore(file: String, words: String) throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        let folder = home.path + "/data/gymcard"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(
            FileManager.default.createFile(
                atPath: folder + "/" + file, contents: Data("garbage".utf8),
                attributes: [.posixPermissions: 0o600]))
        let card = try Self.check(
            Doctor.checks(context, libraries: Self.loading, run: Self.nothingInstalled), "card")
        #expect(card.status == .problem, "\(card)")
        #expect(card.detail.contains(words), "\(card.detail)")
        #expect(card.advice?.contains("`gymcard card --restore`") == true, "\(card)")
    }

    @Test func aStateFolderThatIsAFileIsAProblem() throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        try Data().write(to: URL(fileURLWithPath: home.path + "/state"))
        let checks = Doctor.checks(context, libraries: Self.loading, run: Self.nothingInstalled)
        let state = try Self.check(checks, "state")
        #expect(state.status == .problem, "\(state)")
        #expect(state.detail.hasSuffix("/state is a file, not a folder"), "\(state.detail)")
        #expect(try Self.check(checks, "data").status == .ok)
    }

    /// A history copied or opened by another tool, left in rollback-journal mode (Python's sqlite3 sets it
    /// here): doctor reads it, whole or with its pages overwritten, and writes nothing (no switch to WAL).
    @Test(arguments: [false, true])
    func aHistoryInRollbackJournalModeIsReadNotChanged(damaged: Bool) async throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        let at = context.clock.now.addingTimeInterval(-3600)
        _ = try HistoryFiles.openForWriting(context, campus: nil).importReadings([
            HistoryReading(facility: "war-memorial", fetchedAt: at, occupancy: 40, capacity: 300)
        ])
        let path = HistoryFiles.path(context.directories, campus: nil)
        let script = """
            import sqlite3, sys
            path, damaged = sys.argv[1], sys.argv[2] == "1"
            db = sqlite3.connect(path)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("PRAGMA journal_mode=DELETE")
            db.close()
            if damaged:
                with open(path, "r+b") as f:
                    size = f.seek(0, 2)
                    f.seek(4096)
                    f.write(b"\\xab" * (size - 4096))
            """
        let (status, _, error) = try await Interop.runPython(script, [path, damaged ? "1" : "0"])
        #expect(status == 0, "\(error)")
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let history = try Self.check(
            Doctor.checks(context, libraries: Self.loading, run: Self.nothingInstalled), "history")
        #expect(history.status == (damaged ? .problem : .note), "\(history)")
        #expect(history.detail.contains(damaged ? "is damaged" : "1 reading imported"), "\(history.detail)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
    }

    @Test func aDamagedHistoryIsAProblemAndLeftWhereItIs() throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        let path = HistoryFiles.path(context.directories, campus: nil)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x41, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        let history = try Self.check(
            Doctor.checks(context, libraries: Self.loading, run: Self.nothingInstalled), "history")
        #expect(history.status == .problem, "\(history)")
        #expect(history.detail.contains("is damaged"), "\(history.detail)")
        #expect(history.advice?.contains("moves it aside") == true, "\(history)")
        // A check changes nothing: the file is still there, as it was, and nothing was moved aside.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("corrupt") }
                .isEmpty)
    }

    @Test func importedReadingsCountAsHistory() throws {
        let home = try TemporaryDirectory()
        let context = try Self.context(home)
        let store = try HistoryFiles.openForWriting(context, campus: nil)
        let at = context.clock.now.addingTimeInterval(-2 * 86400)
        _ = try store.importReadings([
            HistoryReading(facility: "war-memorial", fetchedAt: at, occupancy: 40, capacity: 300),
            HistoryReading(
                facility: "mccomas", fetchedAt: at.addingTimeInterval(600), occupancy: 20, capacity: 200),
        ])
        let history = try Self.check(
            Doctor.checks(context, libraries: Self.loading, run: Self.nothingInstalled), "history")
        #expect(history.status == .note, "\(history)")
        #expect(
            history.detail.hasSuffix(
                ": 2 readings imported, the newest 47 h ago; none recorded by gymcard yet"),
            "\(history.detail)")
    }

    @Test func aCrontabLineCountsAsTheTimer() throws {
        let home = try TemporaryDirectory()
        let checks = Doctor.checks(try Self.context(home), libraries: Self.loading) { arguments in
            arguments == ["crontab", "-l"]
                ? (0, "# m h dom mon dow command\n*/5 * * * * /usr/local/bin/gymcard collect\n") : nil
        }
        #expect(try Self.check(checks, "timer").status == .ok)
    }
}

/// The report a person reads and the one a script parses, from the same checks.
@Suite struct DoctorReportTests {
    static let checks = [
        Doctor.Check(topic: "files", name: "card", status: .ok, detail: "0600 in a 0700 folder"),
        Doctor.Check(
            topic: "files", name: "cache", status: .problem, detail: "/tmp/x\u{1B}[2J is not writable",
            advice: "fix its permissions"),
        Doctor.Check(
            topic: "libraries", name: "libzbar", status: .note, detail: "missing", advice: "install it"),
    ]

    @Test func theTextHasAHeadingPerTopicAlignedStatusesAndTheCountOfProblems() {
        let report = DoctorReport(Self.checks)
        #expect(report.problems == 1)
        #expect(
            report.lines == [
                "Files",
                "  ok       card: 0600 in a 0700 folder",
                "  problem  cache: /tmp/x\\e[2J is not writable; fix its permissions",
                "Libraries",
                "  note     libzbar: missing; install it",
                "The network was not used: the addresses above were not tried.",
                "1 problem found: see the lines marked problem.",
            ])
        #expect(DoctorReport(Array(Self.checks.prefix(1))).lines.last == "No problems found.")
    }

    @Test func theJSONHasEveryCheckWithANullAdviceWhenThereIsNothingToDo() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(DoctorReport(Self.checks).json.utf8))
                as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.count == 3)
        #expect(checks[0]["advice"] is NSNull)
        #expect(checks[1]["status"] as? String == "problem")
        #expect(checks[1]["detail"] as? String == "/tmp/x\u{1B}[2J is not writable")
    }
}

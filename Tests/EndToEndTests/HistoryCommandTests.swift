import Foundation
import History
import Imaging
import TestServer
import TestSupport
import TestTime
import Testing

/// 2026-04-04 (after the March change) and 2026-11-21 (after the November one), noon in New York.
private let afterSpringChange = "2026-04-04T16:00:00Z"
private let afterAutumnChange = "2026-11-21T17:00:00Z"

/// Writes ten weeks of the generator's history, ending at `now`, into the home's state directory.
private func seedHistory(_ home: TemporaryDirectory, endingAt now: String) throws {
    let end = try Date(now, strategy: .iso8601)
    try HistoryGenerator().write(
        to: home.path + "/state/gymcard/history.sqlite3", from: end.addingTimeInterval(-70 * 86_400), to: end)
}

/// Gives McComas the same hours every day in the config file.
private func writeHours(_ home: TemporaryDirectory, weekly: Any) throws {
    let days = Dictionary(
        uniqueKeysWithValues: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { ($0, weekly) })
    let config = ["hours": ["facilities": ["mccomas": ["weekly": days]]]]
    try FileManager.default.createDirectory(
        atPath: home.path + "/config/gymcard", withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: config).write(
        to: URL(fileURLWithPath: home.path + "/config/gymcard/config.json"))
}

private func history(_ home: TemporaryDirectory) throws -> HistoryStore {
    try #require(try HistoryStore.openIfPresent(path: home.path + "/state/gymcard/history.sqlite3"))
}

private let everything = (
    from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4_000_000_000)
)

@Suite("History, collect, trends and best, end to end")
struct HistoryCommandTests {
    @Test(
        "occupancy and collect record every fetch; collect is quiet, skips a sample moments after another; a failure is a gap and one line"
    )
    func recording() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        #expect(try await gymcard.run(["occupancy"]).status == 0)
        var store = try history(home)
        #expect(try store.attempts(from: everything.from, to: everything.to).map(\.status) == [.success])
        #expect(
            try store.readings(from: everything.from, to: everything.to).map(\.facility).sorted() == [
                "bouldering-wall", "mccomas", "war-memorial",
            ])

        let skipped = try await gymcard.run(["collect"])
        #expect(skipped.status == 0)
        #expect(skipped.stdout.isEmpty && skipped.stderr.isEmpty)

        func collect(minutesLater: Int) async throws -> GymcardProcess.Result {
            var later = gymcard
            later.environment["GYMCARD_TEST_NOW"] = Date().addingTimeInterval(Double(minutesLater * 60))
                .formatted(.iso8601)
            return try await later.run(["collect", "--timeout", "20"])
        }
        let sampled = try await collect(minutesLater: 5)
        #expect(sampled.status == 0, "\(sampled.stderr)")
        #expect(sampled.stdout.isEmpty && sampled.stderr.isEmpty)

        fake.failing.withLock { $0 = [mccomasID] }
        let partly = try await collect(minutesLater: 10)
        #expect(partly.status == 75)
        #expect(partly.stderrLines.count == 1)
        #expect(partly.stderr.hasPrefix("gymcard: collect: partly: McComas Hall"))

        await fake.server.stop()
        let failed = try await collect(minutesLater: 15)
        #expect(failed.status == 69)
        #expect(failed.stderrLines.count == 1)
        #expect(failed.stderr.hasPrefix("gymcard: collect: nothing fetched:"))

        store = try history(home)
        let attempts = try store.attempts(from: everything.from, to: everything.to)
        #expect(attempts.map(\.status) == [.success, .skipped, .success, .partial, .failed])
        #expect(attempts.last?.error?.contains("refused") == true)
        let counts = Dictionary(
            grouping: try store.readings(from: everything.from, to: everything.to), by: \.facility
        )
        .mapValues(\.count)
        // The failed facility and the failed attempt are gaps: no zeros were recorded.
        #expect(counts["war-memorial"] ?? 0 <= 3 && counts["mccomas"] ?? 0 <= 2)
        #expect(try store.readings(from: everything.from, to: everything.to).allSatisfy { $0.occupancy > 0 })
    }

    @Test(
        "trends --json recovers the weekly pattern cell by cell; best finds the quiet afternoon",
        arguments: [afterSpringChange, afterAutumnChange])
    func trendsAndBest(now: String) async throws {
        let home = try TemporaryDirectory()
        try seedHistory(home, endingAt: now)
        var gymcard = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": now])
        let trends = try await gymcard.run(["trends", "mccomas", "--json"])
        #expect(trends.status == 0, "\(trends.stderr)")
        let document = try #require(JSONSerialization.jsonObject(with: trends.stdout) as? [String: Any])
        #expect(document["timeZone"] as? String == "America/New_York")
        let facility = try #require((document["facilities"] as? [[String: Any]])?.first)
        let cells = try #require(facility["cells"] as? [[String: Any]])
        #expect(cells.count == 7 * 48)
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        var worst = 0.0
        for cell in cells {
            let weekday = names.firstIndex(of: cell["weekday"] as? String ?? "") ?? -1
            let start = (cell["start"] as? String ?? "").split(separator: ":").compactMap { Int($0) }
            let expected = HistoryGenerator.percent(weekday: weekday, minute: start[0] * 60 + start[1])
            let mean = try #require(cell["meanPercent"] as? Double, "\(cell)")
            worst = max(worst, abs(mean - expected))
            #expect((cell["days"] as? Int ?? 0) >= 6)
            #expect((cell["readings"] as? Int ?? 0) >= 18)
        }
        #expect(worst <= 2.5, "the worst cell is \(worst) points off the pattern")

        // A weekday at 10:00 in New York, open 6:00–23:00 every day by the config file (no network): the
        // quiet 13:30–15:30 is the best 90 minutes.
        try writeHours(home, weekly: "06:00-23:00")
        let morning = now == afterSpringChange ? "2026-04-03T14:00:00Z" : "2026-11-20T15:00:00Z"
        gymcard.environment["GYMCARD_TEST_NOW"] = morning
        let best = try await gymcard.run(["best", "mccomas", "--within", "12h", "--for", "90m"])
        #expect(best.status == 0, "\(best.stderr)")
        let lines = best.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "McComas Hall: the quietest 90 min in the next 12 h (from the history of the last 8 weeks, within opening hours)"
        )
        try #require(lines.count == 4)
        let first = lines.count > 1 ? lines[1] : ""
        #expect(
            first.hasPrefix("  Today at 1:30 PM – 3:00 PM")
                || first.hasPrefix("  Today at 2:00 PM – 3:30 PM"), "\(first)")
        #expect(first.hasSuffix("quiet"))

        // Closed over the quiet afternoon: no suggestion reaches into 12:00–17:00.
        try writeHours(home, weekly: ["06:00-12:00", "17:00-23:00"])
        let split = try await gymcard.run(["best", "mccomas", "--within", "12h", "--for", "90m"])
        #expect(split.status == 0, "\(split.stderr)")
        let suggestions = split.stdoutText.split(separator: "\n").dropFirst().map(String.init)
        #expect(suggestions.count == 3)
        for line in suggestions {
            // "  Today at 8:00 PM – 9:30 PM    usually 20%  quiet": both ends inside one opening.
            let clock = #/(\d+):(\d\d) (AM|PM)/#
            let ends = line.matches(of: clock).map { match in
                (Int(match.output.1) ?? 0) % 12 * 60 + (Int(match.output.2) ?? 0)
                    + (match.output.3 == "PM" ? 720 : 0)
            }
            #expect(ends.count == 2, "\(line)")
            let inside = [360...720, 1020...1380].contains { opening in
                ends.allSatisfy { opening.contains($0) }
            }
            #expect(inside, "\(line)")
        }

        // Hours unknown (the service unreachable, nothing cached): nothing is suggested, and it says why.
        try FileManager.default.removeItem(atPath: home.path + "/config/gymcard/config.json")
        gymcard.environment["GYMCARD_HOURS_URL"] = "http://127.0.0.1:9/rshours"
        let unknown = try await gymcard.run(["best", "mccomas", "--within", "12h", "--for", "90m"])
        #expect(unknown.status == 1)
        #expect(unknown.stdoutText.contains("its opening hours are unknown"), "\(unknown.stdoutText)")
    }

    @Test(
        "trends on a terminal-less run: shade characters, the marked now, the comparison; --png writes the image"
    )
    func trendsText() async throws {
        let home = try TemporaryDirectory()
        try seedHistory(home, endingAt: afterAutumnChange)
        let gymcard = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": afterAutumnChange])
        let text = try await gymcard.run(["trends", "mccomas"])
        #expect(text.status == 0)
        let lines = text.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 11)
        #expect(lines[0].hasPrefix("McComas Hall · usual occupancy by half hour · last 8 weeks"))
        #expect(lines[2].hasPrefix("Mon  ░░░░░░░░░░░░▒▒▒▒▒▒▒"))
        #expect(lines[8].hasPrefix("Sun  "))
        #expect(lines[7].contains("◆"), "Saturday noon is marked")
        #expect(!text.stdoutText.contains("\u{1B}"))
        #expect(lines[10].hasPrefix("now unknown · usually"))

        let png = try await gymcard.run(["trends", "--png", home.path + "/trends.png"])
        #expect(png.status == 0, "\(png.stderr)")
        #expect(png.stdout.isEmpty)
        let image = try PNGCodec.decodeGray(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: home.path + "/trends.png"))))
        #expect(image.width == 800)
        #expect(image.height > 3 * 150)
    }

    @Test("best for an added campus without hours names the key that gives them there, as hours does")
    func bestNamesTheCampusHoursKey() async throws {
        let home = try TemporaryDirectory()
        let end = try Date(afterAutumnChange, strategy: .iso8601)
        try HistoryGenerator().write(
            to: home.path + "/state/gymcard/campuses/loc/history.sqlite3",
            from: end.addingTimeInterval(-70 * 86_400), to: end)
        try CampusProfileConfig.write(
            home: home.path, name: "loc", timeZone: "America/New_York",
            facilities: [("mccomas", "McComas Hall", "McC", "da73849e-434d-415f-975a-4f9e799b9c39", 600)])
        let gymcard = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": afterAutumnChange])
        let best = try await gymcard.run(["best", "--campus", "loc"])
        #expect(best.status == 1, "\(best.stderr)")
        #expect(best.stdoutText.contains("its opening hours are unknown"), "\(best.stdoutText)")
        #expect(best.stdoutText.contains("campuses.loc.hours.mccomas"), "\(best.stdoutText)")
        #expect(!best.stdoutText.contains("hours.facilities"), "\(best.stdoutText)")
    }

    @Test("an empty history: trends says how to start, best suggests nothing with the count; both exit 1")
    func emptyHistory() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": afterAutumnChange])
        let trends = try await gymcard.run(["trends"])
        #expect(trends.status == 1)
        #expect(try await gymcard.run(["trends", "--json"]).status == 1)
        #expect(trends.stderr.contains("no history to show yet"))
        let best = try await gymcard.run(["best", "mccomas"])
        #expect(best.status == 1)
        #expect(
            best.stdoutText.hasPrefix(
                "McComas Hall: not enough history for a suggestion: 0 readings on 0 days"))
        #expect(try home.contents().contains("state") == false, "reading creates no history")
        let unknown = try await gymcard.run(["best", "gold's gym"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderrLines == [
                "gymcard: no facility gold's gym; give one of war-memorial, mccomas, bouldering-wall"
            ])
    }

    @Test("export and import: CSV round trip into another home; a malformed line imports nothing")
    func exchange() async throws {
        let home = try TemporaryDirectory()
        try seedHistory(home, endingAt: afterAutumnChange)
        let source = GymcardProcess(home: home.path)
        let csv = try await source.run(["history", "export", "--since", "2026-11-15"])
        #expect(csv.status == 0)
        let lines = csv.stdoutText.split(separator: "\n")
        #expect(lines.first == "facility,fetched_at,source_time,occupancy,capacity,status")
        #expect(lines.count > 2000)
        try csv.stdout.write(to: URL(fileURLWithPath: home.path + "/week.csv"))

        let other = try TemporaryDirectory()
        let target = GymcardProcess(home: other.path)
        let imported = try await target.run(["history", "import", home.path + "/week.csv"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stderrLines == [
                "gymcard: imported \(lines.count - 1) readings from \(home.path)/week.csv"
            ])
        let again = try await target.run(["history", "import", home.path + "/week.csv"])
        #expect(
            again.stderr.contains("imported 0 readings") && again.stderr.contains("already in the history"))
        #expect(try await target.run(["history", "export"]).stdout == csv.stdout)
        let json = try await target.run(["history", "export", "--json"])
        let array = try #require(JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(array.count == lines.count - 1)

        var broken = lines.prefix(5).map(String.init)
        broken[3] = broken[3].replacing(",ok", with: ",maybe")
        try Data((broken.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: home.path + "/broken.csv"))
        let fresh = try TemporaryDirectory()
        let refused = try await GymcardProcess(home: fresh.path).run([
            "history", "import", home.path + "/broken.csv",
        ])
        #expect(refused.status == 65)
        #expect(
            refused.stderrLines == [
                "gymcard: \(home.path)/broken.csv: line 4: status is not ok or closed (\"maybe\"); nothing was imported"
            ])
        let empty = try await GymcardProcess(home: fresh.path).run(["history", "export"])
        #expect(empty.stdoutText == "facility,fetched_at,source_time,occupancy,capacity,status\n")
    }

    @Test("several writers at once, one killed by SIGKILL: the history stays whole, no row lost")
    func concurrentWriters() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        let gymcard = fake.gymcard(home)
        var processes: [ChildProcess] = []
        for _ in 0..<6 {
            processes.append(
                try await ChildProcess.start(
                    GymcardProcess.executable.path, ["occupancy", "--timeout", "30"],
                    environment: gymcard.environment))
        }
        try await Task.sleep(for: .milliseconds(60))
        processes[2].send(SIGKILL)
        var results: [Int32] = []
        for process in processes { results.append(try await process.wait().status) }
        let finished = results.enumerated().filter { $0.offset != 2 && $0.element == 0 }.count
        #expect(finished == 5)
        let (status, output, error) = try await Interop.runPython(
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA integrity_check').fetchone()[0])",
            [home.path + "/state/gymcard/history.sqlite3"])
        #expect(status == 0, "\(error)")
        #expect(String(decoding: output, as: UTF8.self) == "ok\n")
        let store = try history(home)
        let attempts = try store.attempts(from: everything.from, to: everything.to)
        #expect(attempts.count == finished || attempts.count == finished + 1)
        #expect(attempts.allSatisfy { $0.status == .success })
        // Runs in the same second share their readings; every run's second is there.
        let seconds = Set(attempts.map(\.at))
        #expect(Set(try store.readings(from: everything.from, to: everything.to).map(\.fetchedAt)) == seconds)
    }

    @Test("a damaged history is moved aside with one warning, and the reading recorded in a new one")
    func damagedHistory() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/state/gymcard", withIntermediateDirectories: true)
        try Data("not a database, just text".utf8).write(
            to: URL(fileURLWithPath: home.path + "/state/gymcard/history.sqlite3"))
        let result = try await fake.gymcard(home).run(["occupancy"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
        #expect(
            result.stderr.contains(
                "warning: the history \(home.path)/state/gymcard/history.sqlite3 was damaged; it was moved to"
            ))
        #expect(try history(home).attempts(from: everything.from, to: everything.to).count == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: home.path + "/state/gymcard").contains {
                $0.hasPrefix("history.sqlite3.corrupt-")
            })
    }

    @Test(
        "a full disk: the reading is shown, not recorded, exit 74; nothing else lost",
        .enabled(
            if: Capability.tmpfsMount, "mounting a small tmpfs must be permitted (root)"))
    func fullDisk() async throws {
        let fake = try await FakeRecSports()
        let home = try TemporaryDirectory()
        let state = home.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        try #require(
            FullDiskTests.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", state]),
            "mounting a small tmpfs is not permitted here")
        defer { _ = FullDiskTests.run(["umount", state]) }
        let gymcard = fake.gymcard(home)
        #expect(try await gymcard.run(["occupancy"]).status == 0)
        // Fill what is left.
        _ = FullDiskTests.run(["dd", "if=/dev/zero", "of=\(state)/filler", "bs=4k", "count=1000"])
        let before = try Data(contentsOf: URL(fileURLWithPath: state + "/gymcard/history.sqlite3"))
        fake.values.withLock { $0[mccomasID] = 321 }
        // A WAL file may still have room for a page or two: a few runs until one is refused.
        var result = try await gymcard.run(["occupancy"])
        for _ in 0..<20 where result.status == 0 { result = try await gymcard.run(["occupancy"]) }
        #expect(result.status == 74)
        #expect(result.stdoutText.contains("321 / 600"), "the reading is shown")
        #expect(result.stderr.contains("not recorded in the history") || result.stderr.contains("not saved"))
        #expect(result.stderr.contains("the disk is full"))
        _ = FullDiskTests.run(["rm", "-f", "\(state)/filler"])
        let store = try history(home)
        #expect(try store.attempts(from: everything.from, to: everything.to).count >= 1)
        #expect(before.count > 0)
    }

    /// gymcard in `home` with a PATH of no programs (no systemctl, no user manager to enable the timer
    /// with), and the folder `collect --install` writes the units to.
    static func withoutSystemctl(_ home: TemporaryDirectory) throws -> (GymcardProcess, units: String) {
        let empty = home.path + "/empty-bin"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        var gymcard = GymcardProcess(home: home.path)
        gymcard.environment["PATH"] = empty
        return (gymcard, home.path + "/config/systemd/user")
    }

    @Test(
        "systemd-analyze verify accepts the unit files collect --install writes",
        .enabled(
            if: Prerequisite.runs(FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")),
            "systemd-analyze (Debian: systemd) is needed"))
    func unitFilesVerify() async throws {
        let home = try TemporaryDirectory()
        let (gymcard, units) = try Self.withoutSystemctl(home)
        let installed = try await gymcard.run(["collect", "--install"])
        #expect(installed.status == 0, "\(installed.stderr)")
        let verified = try await ChildProcess.run(
            "/usr/bin/systemd-analyze",
            ["verify", "--man=no", units + "/gymcard-collect.service", units + "/gymcard-collect.timer"])
        #expect(verified.status == 0, "systemd-analyze verify: \(verified.stdoutText)\(verified.stderrText)")
    }

    @Test(
        "collect --install writes the timer; without a user manager it says how and prints the crontab line; --uninstall removes it"
    )
    func install() async throws {
        let home = try TemporaryDirectory()
        var (gymcard, units) = try Self.withoutSystemctl(home)
        let fallback = try await gymcard.run(["collect", "--install"])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(fallback.stderr.contains("could not enable the timer (systemctl is not installed)"))
        #expect(fallback.stderr.contains("systemctl --user enable --now gymcard-collect.timer"))
        let executable = GymcardProcess.executable.path
        #expect(
            fallback.stdoutText
                == "*/5 * * * * XDG_DATA_HOME='\(home.path)/data' XDG_CONFIG_HOME='\(home.path)/config' XDG_CACHE_HOME='\(home.path)/cache' XDG_STATE_HOME='\(home.path)/state' '\(executable)' collect\n"
        )
        let service = try String(contentsOfFile: units + "/gymcard-collect.service", encoding: .utf8)
        #expect(service.contains("ExecStart=\"\(executable)\" collect\n"))
        let timer = try String(contentsOfFile: units + "/gymcard-collect.timer", encoding: .utf8)
        #expect(timer.contains("OnCalendar=*:0/5\nPersistent=true\n"))

        // With a systemctl that works (a stub recording its arguments): enabled.
        let stub = home.path + "/bin"
        try FileManager.default.createDirectory(atPath: stub, withIntermediateDirectories: false)
        try ExecutableScript.write(
            "#!/bin/sh\necho \"$@\" >> \(home.path)/systemctl.log\n", to: stub + "/systemctl")
        gymcard.environment["PATH"] = stub
        let enabled = try await gymcard.run(["collect", "--install"])
        #expect(enabled.status == 0)
        #expect(enabled.stderr.contains("enabled gymcard-collect.timer"))
        #expect(enabled.stdout.isEmpty)
        let status = try await gymcard.run(["collect", "--status"])
        #expect(status.status == 75, "installed, and no sample yet")
        #expect(status.stdoutText.contains("Timer: installed (\(units)/gymcard-collect.timer)"))
        #expect(status.stderr.contains("the timer is installed but the last sample is missing"))
        let removed = try await gymcard.run(["collect", "--uninstall"])
        #expect(removed.status == 0)
        #expect(!FileManager.default.fileExists(atPath: units + "/gymcard-collect.timer"))
        #expect(!FileManager.default.fileExists(atPath: units + "/gymcard-collect.service"))
        let log = try String(contentsOfFile: home.path + "/systemctl.log", encoding: .utf8)
        #expect(
            log == "--user daemon-reload\n--user enable --now gymcard-collect.timer\n"
                + "--user disable --now gymcard-collect.timer\n--user daemon-reload\n")
    }

    @Test("collect --status: the last sample, samples per day, gaps")
    func status() async throws {
        let home = try TemporaryDirectory()
        try seedHistory(home, endingAt: afterAutumnChange)
        let result = try await GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": afterAutumnChange])
            .run(["collect", "--status"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.contains("Timer: not installed; `gymcard collect --install` samples every 5 minutes"))
        #expect(
            lines.contains { $0.hasPrefix("Last sample: 5 min ago") || $0.hasPrefix("Last sample: just now") }
        )
        #expect(lines.contains("Samples per day, last 14 days (America/New_York):"))
        #expect(lines.contains { $0.hasPrefix("  Sat, Nov 21") })
        // Day 9 back (Thu, Nov 12) failed all day: no samples, 288 failures, and a gap of a day or more.
        #expect(lines.contains { $0.hasPrefix("  Thu, Nov 12    0  ") && $0.hasSuffix("(288 failed)") })
        #expect(lines.contains { $0.hasPrefix("Gaps over 15 min: ") && $0.contains("the longest 24 h") })
    }

    @Test("the waybar tooltip adds what is usual now, from the history")
    func waybarUsual() async throws {
        let home = try TemporaryDirectory()
        try seedHistory(home, endingAt: afterAutumnChange)
        // Saturday 14:00 in New York, inside the quiet 13:30–15:30.
        let result = try await GymcardProcess(
            home: home.path, extra: ["GYMCARD_TEST_NOW": "2026-11-21T19:00:00Z"]
        )
        .run(["occupancy", "--cached", "--format", "waybar"])
        #expect(result.status == 0)
        let module = try #require(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let tooltip = try #require(module["tooltip"] as? String)
        #expect(tooltip.contains(#/McComas Hall: unavailable · usually [6-9]% now/#), "\(tooltip)")
    }

    @Test(
        "history export streams: a year of readings as JSON or CSV in under 30 MB",
        arguments: ["--json", "--csv"])
    func exportMemory(format: String) async throws {
        let home = try TemporaryDirectory()
        let end = try Date(afterAutumnChange, strategy: .iso8601)
        let database = home.path + "/state/gymcard/history.sqlite3"
        try await OffThePool.compute {
            try HistoryGenerator(
                facilities: [("war-memorial", 1200), ("mccomas", 600), ("bouldering-wall", 60)],
                missingShare: 0,
                failedDaysBack: []
            )
            .write(to: database, from: end.addingTimeInterval(-365 * 86_400), to: end)
        }
        let environment = GymcardProcess(home: home.path).environment
        let measured = try await OffThePool.run {
            try PeakMemory.run(
                GymcardProcess.executable.path, ["history", "export", format], environment: environment)
        }
        #expect(measured.status == 0)
        #expect(measured.peakKilobytes < 30 * 1024, "peak \(measured.peakKilobytes / 1024) MB")
        // The output is the whole year: as many lines as readings, and the first reading a year back.
        let export = try await GymcardProcess(home: home.path).run(["history", "export", format])
        let rows = try history(home).readings(from: everything.from, to: everything.to)
        #expect(rows.count > 310_000)
        let lines = export.stdoutText.split(separator: "\n")
        #expect(lines.count == rows.count + (format == "--json" ? 2 : 1))
        let parsed = try HistoryExchange.parse(Array(export.stdout))
        func summary(_ reading: HistoryReading?) -> String? {
            reading.map { "\($0.facility) \($0.fetchedAt) \($0.occupancy) \($0.capacity)" }
        }
        #expect(parsed.count == rows.count)
        #expect(summary(parsed.first) == summary(rows.first))
        #expect(summary(parsed.last) == summary(rows.last))
    }

    @Test(
        "the waybar tooltip's usual is trends's; it is kept between calls while the history is unchanged, and an import renews it"
    )
    func waybarUsualKept() async throws {
        let home = try TemporaryDirectory()
        try seedHistory(home, endingAt: afterAutumnChange)
        // Saturday 14:00 in New York. The answer is kept only once the history's files are 2 s old.
        let gymcard = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": "2026-11-21T19:00:00Z"])
        try await Task.sleep(for: .milliseconds(2100))
        func usual() async throws -> (waybar: String, trends: String) {
            let result = try await gymcard.run(["occupancy", "--cached", "--format", "waybar"])
            #expect(result.status == 0)
            let module = try #require(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let tooltip = try #require(module["tooltip"] as? String)
            let waybar = try #require(
                tooltip.firstMatch(of: #/McComas Hall: unavailable · usually (\d+)% now/#))
            let trends = try await gymcard.run(["trends", "mccomas", "--no-color"])
            let line = try #require(trends.stdoutText.firstMatch(of: #/usually (\d+)% at this time/#))
            return (String(waybar.1), String(line.1))
        }
        let first = try await usual()
        #expect(first.waybar == first.trends)
        let cache = home.path + "/cache/gymcard/usual-now"
        let kept = try String(contentsOfFile: cache, encoding: .utf8)
        #expect(kept.contains("\nusual mccomas "))

        // The next call answers from the kept file: a value put there shows.
        let planted = kept.replacing(#/usual mccomas [^\n]+/#, with: "usual mccomas 77")
        try Data(planted.utf8).write(to: URL(fileURLWithPath: cache))
        #expect(try await usual().waybar == "77")

        // An import into the history (the last two Saturdays full at 14:00–14:30) is seen at once.
        let rows = ["2026-11-07", "2026-11-14"].flatMap { day in
            (0..<6).map { "mccomas,\(day)T19:\($0 * 5 + 1 < 10 ? "0" : "")\($0 * 5 + 1):00Z,,600,600,ok" }
        }
        try Data((HistoryExchange.csvHeader + "\n" + rows.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: home.path + "/busy.csv"))
        #expect(try await gymcard.run(["history", "import", home.path + "/busy.csv"]).status == 0)
        let after = try await usual()
        #expect(after.waybar == after.trends)
        #expect(after.waybar != "77" && after.waybar != first.waybar)
    }
}

import Foundation
import TestSupport
import Testing

@Suite("gymcard render --batch, end to end")
struct RenderCommandTests {
    @Test("every valid line becomes a scannable file named after its ID; bad lines are reported by number")
    func batch() async throws {
        let home = try TemporaryDirectory()
        var generator = SeededGenerator(seed: 2)
        var lines = ["# member IDs", ""]
        var expected: Set<String> = []
        for _ in 0..<40 {
            let digits = (0..<9).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            lines.append(digits)
            expected.insert("A\(digits)B")
        }
        lines.insert("12x4", at: 7)
        lines.append("  C1/2:3$4D  ")
        expected.insert("C1/2:3$4D")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))

        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/ids.txt", "--out", home.path + "/out",
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("ids.txt:8: invalid ID: 'x' at position 3"))
        #expect(result.stderr.contains("1 of 42 lines failed"))
        let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/out")
        #expect(files.count == expected.count)
        #expect(files.contains("C1_2=3S4D.png"))
        for file in files.sorted().prefix(8) + ["C1_2=3S4D.png"] {
            let decoded = try decodeFile(home.path + "/out/" + file)
            try #require(decoded.count == 1)
            #expect(expected.contains(decoded[0]))
        }
    }

    @Test("--format svg writes SVG files; the run succeeds with exit 0")
    func svg() async throws {
        let home = try TemporaryDirectory()
        try Data("123456789\n987654321\n".utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/ids.txt", "--out", home.path + "/out/nested", "--format",
            "svg",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/out/nested").sorted()
        #expect(files == ["A123456789B.svg", "A987654321B.svg"])
    }

    @Test("a new directory is created; a second run replaces the files in place; nothing hidden is left")
    func destinations() async throws {
        let home = try TemporaryDirectory()
        try Data("123456789\n987654321\n".utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let gymcard = GymcardProcess(home: home.path)
        for _ in 0..<2 {
            let result = try await gymcard.run([
                "render", "--batch", home.path + "/ids.txt", "--out", home.path + "/cards",
            ])
            #expect(result.status == 0)
            #expect(try home.contents() == ["cards", "ids.txt"], "no hidden staging directory is left")
            #expect(
                !(try FileManager.default.contentsOfDirectory(atPath: home.path + "/cards")).contains {
                    $0.hasPrefix(".")
                })
            let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/cards").sorted()
            #expect(files == ["A123456789B.png", "A987654321B.png"])
            #expect(try decodeFile(home.path + "/cards/A987654321B.png") == ["A987654321B"])
        }
    }

    static func identity(_ path: String) -> (inode: ino_t, mode: mode_t, group: gid_t)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (status.st_ino, status.st_mode & 0o7777, status.st_gid)
    }

    static func writeIDs(_ count: Int, seed: UInt64, to path: String) throws {
        var generator = SeededGenerator(seed: seed)
        let ids = (0..<count).map { _ in
            (0..<9).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        }
        try Data((ids.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("an existing directory keeps its inode, mode and group (a private 2750 folder stays private)")
    func existingDirectoryKept() async throws {
        let home = try TemporaryDirectory()
        try Self.writeIDs(5, seed: 7, to: home.path + "/ids.txt")
        let out = home.path + "/out"
        #expect(mkdir(out, 0o700) == 0)
        // nogroup when running as root (CI), so that a replaced directory would show as group root.
        if getuid() == 0, let group = getgrnam("nogroup") { chown(out, 0, group.pointee.gr_gid) }
        chmod(out, 0o2750)
        let before = try #require(Self.identity(out))
        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/ids.txt", "--out", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try #require(Self.identity(out))
        #expect(after.inode == before.inode)
        #expect(after.mode == 0o2750)
        #expect(after.group == before.group)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 5)
        #expect(try home.contents() == ["ids.txt", "out"])
    }

    @Test("a read-only empty directory is not made writable: written into by root, refused otherwise")
    func readOnlyDirectoryKept() async throws {
        let home = try TemporaryDirectory()
        try Self.writeIDs(3, seed: 8, to: home.path + "/ids.txt")
        let out = home.path + "/readonly"
        #expect(mkdir(out, 0o555) == 0)
        chmod(out, 0o555)
        let before = try #require(Self.identity(out))
        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/ids.txt", "--out", out,
        ])
        if getuid() == 0 {
            #expect(result.status == 0, "\(result.stderr)")
        } else {
            #expect(result.status == 74)
            #expect(result.stderr.contains("permission denied"))
        }
        let after = try #require(Self.identity(out))
        #expect(after.inode == before.inode)
        #expect(after.mode == 0o555)
        #expect(try home.contents() == ["ids.txt", "readonly"])
    }

    @Test("--out new/, --out . and --out a link to a directory: files land there, nothing hidden is left")
    func outSpellings() async throws {
        let home = try TemporaryDirectory()
        try Self.writeIDs(3, seed: 9, to: home.path + "/ids.txt")
        let gymcard = GymcardProcess(home: home.path)
        let batch = ["render", "--batch", home.path + "/ids.txt", "--out"]

        let trailing = try await gymcard.run(batch + [home.path + "/new/"])
        #expect(trailing.status == 0, "\(trailing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/new").count == 3)

        try FileManager.default.createDirectory(
            atPath: home.path + "/here", withIntermediateDirectories: false)
        let dot = try await gymcard.run(batch + ["."], currentDirectory: home.path + "/here")
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/here").count == 3)

        try FileManager.default.createDirectory(
            atPath: home.path + "/target", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: home.path + "/link", withDestinationPath: "target")
        let linked = try await gymcard.run(batch + [home.path + "/link"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.path + "/link") == "target")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/target").count == 3)

        #expect(try home.contents() == ["here", "ids.txt", "link", "new", "target"])
        for folder in ["new", "here", "target"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: home.path + "/" + folder)
            #expect(!names.contains { $0.hasPrefix(".") }, "\(folder): \(names)")
        }
    }

    @Test("the summary counts files written, not IDs: duplicates share one file")
    func summaryCountsFiles() async throws {
        let home = try TemporaryDirectory()
        let lines = [
            "905123456", "9051-23456", "A905123456B", "xx", "905123457", "", "905123458", "yy", "905123459",
            "zz",
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/ids.txt", "--out", home.path + "/o9",
        ])
        #expect(result.status == 65)
        #expect(result.stderrLines.last == "gymcard: 3 of 9 lines failed; 4 files written to \(home.path)/o9")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/o9").count == 4)
    }

    @Test(
        "Ctrl-C or SIGTERM in the middle of 20000 IDs: only complete files, nothing hidden, a message, 130/143",
        arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interrupted(signal: Int32, status: Int32) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        // A batch that ended before the signal could be sent (a loaded machine resumed this test late) is
        // tried again ten times as long, into a folder of its own: the answer does not depend on speed.
        var count = 20000
        var out = ""
        var batch: [String] = []
        var run: (result: GymcardProcess.Result, signalled: Bool)?
        while count <= 2_000_000, run?.signalled != true {
            try Self.writeIDs(count, seed: 20, to: home.path + "/ids.txt")
            out = home.path + "/big\(count)"
            batch = ["render", "--batch", home.path + "/ids.txt", "--out", out]
            let folder = out
            run = try await gymcard.runSignalled(batch, signal: signal) { _ in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder))?.count ?? 0) >= 20
            }
            count *= 10
        }
        let (result, signalled) = try #require(run)
        try #require(signalled, "the batch ended before the signal could be sent")
        #expect(result.status == status)
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.count > 0 && names.count < count / 10)
        #expect(
            result.stderrLines.last
                == "gymcard: interrupted; stopped with \(names.count) files written to \(out), each one complete"
        )
        #expect(!names.contains { $0.hasPrefix(".") || !$0.hasSuffix(".png") })
        #expect(
            try home.contents().allSatisfy { $0 == "ids.txt" || $0.hasPrefix("big") },
            "no hidden staging directory")
        // Every file is a whole PNG: it ends with the IEND chunk.
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        var incomplete = 0
        for name in names
        where ![UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))).suffix(8)
            .elementsEqual(iend)
        {
            incomplete += 1
        }
        #expect(incomplete == 0)
        #expect(try decodeFile(out + "/" + names[0]).count == 1)

        // Again into the same directory: the first files are now replaced (each through a temporary
        // name renamed over it), and a signal there leaves no temporary name either.
        // Signalled once the batch has replaced a file (the folder's time changes with each rename), not
        // after a fixed wait: a loaded machine was seen to start gymcard so late that the signal came
        // before its handler was installed (exit 2).
        let start = Date()
        let folder = out
        let (again, signalledAgain) = try await gymcard.runSignalled(batch, signal: signal) { _ in
            let changed =
                (try? FileManager.default.attributesOfItem(atPath: folder))?[.modificationDate] as? Date
            return changed.map { $0 > start } ?? false
        }
        try #require(signalledAgain, "the batch ended before the signal could be sent")
        #expect(again.status == status)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: out)).contains { $0.hasPrefix(".") })
    }

    @Test(
        "SIGTERM or Ctrl-C while the batch waits for standard input: the IDs that came are drawn, and it stops at once",
        arguments: [("SIGTERM", Int32(143)), ("SIGINT", Int32(130))])
    func signalWhileWaitingForInput(signal: String, status: Int32) async throws {
        let home = try TemporaryDirectory()
        let out = home.path + "/out"
        // The writer keeps the pipe open and writes nothing more; the signal comes once gymcard waits in
        // poll(2) (its /proc syscall number: 7, or ppoll's 271), whatever the machine's speed.
        let script = """
            import json, os, signal, subprocess, sys, time
            gymcard, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
            child = subprocess.Popen([gymcard, "render", "--batch", "-", "--out", out],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                env=dict(os.environ, **json.loads(sys.argv[4])))
            child.stdin.write(b"905123456\\n"); child.stdin.flush()
            deadline = time.time() + 300
            while time.time() < deadline:
                try:
                    number = open("/proc/%d/syscall" % child.pid).read().split()[0]
                except OSError:
                    number = ""
                if number in ("7", "271"): break
                time.sleep(0.05)
            child.send_signal(getattr(signal, name))
            try:
                status = child.wait(timeout=300)
            except subprocess.TimeoutExpired:
                child.kill(); status = "hung"
            print(status); print(child.stderr.read().decode().strip().splitlines()[-1:])
            """
        let environment = String(
            decoding: try JSONSerialization.data(withJSONObject: GymcardProcess(home: home.path).environment),
            as: UTF8.self)
        let (pythonStatus, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, out, signal, environment])
        #expect(pythonStatus == 0, "\(error)")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == "\(status)", "\(lines)")
        // The ID that came before the wait was drawn before the batch waited for more, and is kept.
        #expect(
            lines.last?.contains("gymcard: interrupted; stopped with 1 file written to \(out)") == true,
            "\(lines)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []) == ["A905123456B.png"])
    }

    @Test("bad batch input: a clear line and the documented exit code")
    func badInput() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Data("# nothing here\n\n".utf8).write(to: URL(fileURLWithPath: home.path + "/empty.txt"))
        try Data("123456789\n".utf8).write(to: URL(fileURLWithPath: home.path + "/one.txt"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: home.path + "/afile"))
        let cases: [([String], Int32, String)] = [
            (["render", "--batch", home.path + "/empty.txt", "--out", home.path + "/o1"], 65, "has no IDs"),
            (
                ["render", "--batch", home.path + "/missing.txt", "--out", home.path + "/o2"], 66,
                "no such file"
            ),
            (["render", "--batch", home.path, "--out", home.path + "/o3"], 66, "is a directory"),
            (
                ["render", "--batch", home.path + "/one.txt", "--out", home.path + "/afile"], 74,
                "not a directory"
            ),
            (
                ["render", "--batch", home.path + "/one.txt", "--out", home.path + "/o4", "--format", "gif"],
                64, "gif"
            ),
            (
                ["render", "--batch", home.path + "/one.txt", "--out", home.path + "/o5", "--scale", "0"], 64,
                "scale"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try await gymcard.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.path + "/o4"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/o5"))
    }

    @Test("a binary file as the batch: a few lines of error, one message that says so, exit 65, no files")
    func binaryBatch() async throws {
        let home = try TemporaryDirectory()
        var generator = SeededGenerator(seed: 24)
        let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(noise).write(to: URL(fileURLWithPath: home.path + "/photo.jpg"))
        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/photo.jpg", "--out", home.path + "/out",
        ])
        #expect(result.status == 65)
        #expect(
            result.stderrLines.count <= 6, "\(result.stderrLines.count) lines: \(result.stderr.prefix(500))")
        #expect(
            result.stderrLines.last?.contains(
                "looks like a binary file, not a list of IDs: stopped with no files written")
                == true, "\(result.stderrLines.last ?? "")")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/out"))
    }

    @Test(
        "a long list with a few lines that are not text (Latin-1 comments) is rendered whole, those lines skipped"
    )
    func strayLines() async throws {
        let home = try TemporaryDirectory()
        var bytes: [UInt8] = []
        for number in 1...300 {
            if [11, 150, 290].contains(number) {
                bytes += Array("# Jos".utf8) + [0xE9] + Array(" M".utf8) + [0xFC, 0x0A]
            }
            bytes += Array(String(format: "A%08dB\n", number).utf8)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: home.path + "/roster.txt"))
        let result = try await GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/roster.txt", "--out", home.path + "/out",
        ])
        #expect(result.status == 65)
        #expect(!result.stderr.contains("binary"), "\(result.stderr)")
        #expect(result.stderrLines.filter { $0.contains("not text") }.count == 3)
        let written = try FileManager.default.contentsOfDirectory(atPath: home.path + "/out")
        #expect(written.count == 300)
    }
}

@Suite("A full disk")
struct FullDiskTests {
    /// Runs a command as root would; `false` when it fails (or is not permitted here).
    /// Quick commands only (mount, umount, dd of a few MB): it blocks the calling thread.
    static func run(_ arguments: [String]) -> Bool {
        (try? ChildProcess.runBlocking(["/usr/bin/env"] + arguments)) == 0
    }

    @Test(
        "render and show on a full disk: exit 74, a clear line, only whole files left",
        .enabled(
            if: Capability.tmpfsMount, "mounting a small tmpfs must be permitted (root)"))
    func fullDisk() async throws {
        let home = try TemporaryDirectory()
        let mountPoint = home.path + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        try #require(
            Self.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint]),
            "mounting a small tmpfs is not permitted here")
        defer { _ = Self.run(["umount", mountPoint]) }
        var generator = SeededGenerator(seed: 64)
        let ids = (0..<1500).map { _ in
            (0..<9).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        }
        try Data(ids.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let gymcard = GymcardProcess(home: home.path)

        let result = try await gymcard.run([
            "render", "--batch", home.path + "/ids.txt", "--out", mountPoint + "/cards",
        ])
        #expect(result.status == 74)
        #expect(result.stderr.contains("the disk is full"))
        let files = try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/cards")
        #expect(!files.isEmpty && files.count < ids.count)
        #expect(result.stderr.contains("stopped with \(files.count) files written to \(mountPoint)/cards"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint) == ["cards"])
        #expect(files.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") })
        for file in files {
            #expect(try decodeFile(mountPoint + "/cards/" + file).count == 1, "\(file) is whole")
        }

        let show = try await gymcard.run(["show", "--id", "123456789", "--png", mountPoint + "/card.png"])
        #expect(show.status == 74)
        #expect(
            show.stderrLines == [
                "gymcard: cannot write \(mountPoint)/card.png: the disk is full; free some space and try again"
            ])
        #expect(!FileManager.default.fileExists(atPath: mountPoint + "/card.png"))
    }
}

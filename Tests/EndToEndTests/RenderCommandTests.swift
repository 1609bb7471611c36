import Foundation
import TestSupport
import Testing

@Suite("gymcard render --batch, end to end")
struct RenderCommandTests {
    @Test("every valid line becomes a scannable file named after its ID; bad lines are reported by number")
    func batch() throws {
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

        let result = try GymcardProcess(home: home.path).run([
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
            #expect(decoded.count == 1)
            #expect(expected.contains(decoded[0]))
        }
    }

    @Test("--format svg writes SVG files; the run succeeds with exit 0")
    func svg() throws {
        let home = try TemporaryDirectory()
        try Data("123456789\n987654321\n".utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let result = try GymcardProcess(home: home.path).run([
            "render", "--batch", home.path + "/ids.txt", "--out", home.path + "/out/nested", "--format",
            "svg",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/out/nested").sorted()
        #expect(files == ["A123456789B.svg", "A987654321B.svg"])
    }

    @Test("a new directory appears complete in one step; a second run replaces the files in place")
    func destinations() throws {
        let home = try TemporaryDirectory()
        try Data("123456789\n987654321\n".utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let gymcard = GymcardProcess(home: home.path)
        for _ in 0..<2 {
            let result = try gymcard.run([
                "render", "--batch", home.path + "/ids.txt", "--out", home.path + "/cards",
            ])
            #expect(result.status == 0)
            #expect(try home.contents() == ["cards", "ids.txt"], "no hidden staging directory is left")
            let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/cards").sorted()
            #expect(files == ["A123456789B.png", "A987654321B.png"])
            #expect(try decodeFile(home.path + "/cards/A987654321B.png") == ["A987654321B"])
        }
    }

    @Test("bad batch input: a clear line and the documented exit code")
    func badInput() throws {
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
            let result = try gymcard.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.path + "/o4"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/o5"))
    }
}

@Suite("A full disk")
struct FullDiskTests {
    /// Runs a command as root would; `false` when it is not permitted here.
    static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("render and show on a full disk: exit 74, a clear line, only whole files left")
    func fullDisk() throws {
        let home = try TemporaryDirectory()
        let mountPoint = home.path + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        guard Self.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint]) else {
            print("note: skipping the full-disk test: mounting a small tmpfs is not permitted here")
            return
        }
        defer { _ = Self.run(["umount", mountPoint]) }
        var generator = SeededGenerator(seed: 64)
        let ids = (0..<1500).map { _ in
            (0..<9).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        }
        try Data(ids.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: home.path + "/ids.txt"))
        let gymcard = GymcardProcess(home: home.path)

        let result = try gymcard.run([
            "render", "--batch", home.path + "/ids.txt", "--out", mountPoint + "/cards",
        ])
        #expect(result.status == 74)
        #expect(result.stderr.contains("the disk is full"))
        let files = try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/cards")
        #expect(!files.isEmpty && files.count < ids.count)
        #expect(result.stderr.contains("stopped after \(files.count) files"))
        #expect(files.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") })
        for file in files {
            #expect(try decodeFile(mountPoint + "/cards/" + file).count == 1, "\(file) is whole")
        }

        let show = try gymcard.run(["show", "--id", "123456789", "--png", mountPoint + "/card.png"])
        #expect(show.status == 74)
        #expect(
            show.stderrLines == [
                "gymcard: cannot write \(mountPoint)/card.png: the disk is full; free some space and try again"
            ])
        #expect(!FileManager.default.fileExists(atPath: mountPoint + "/card.png"))
    }
}

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

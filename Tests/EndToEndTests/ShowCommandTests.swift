import Foundation
import Imaging
import Scanner
import TestSupport
import Testing

/// Decodes a PNG file with the real libpng and libzbar.
func decodeFile(_ path: String) throws -> [String] {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    return ZBarReader(codabarMinimumLength: 3).decode(try PNGCodec.decodeGray(bytes)).map(\.text)
}

@Suite("gymcard show, end to end")
struct ShowCommandTests {
    @Test("--png, --svg and --qr write files that scan to the normalized ID")
    func files() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let result = try await gymcard.run([
            "show", "--id", "1234 56789", "--png", home.path + "/card.png", "--svg", home.path + "/card.svg",
            "--qr", home.path + "/qr.png", "--text",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(try decodeFile(home.path + "/card.png") == ["A123456789B"])
        #expect(try decodeFile(home.path + "/qr.png") == ["A123456789B"])
        let svg = try String(contentsOfFile: home.path + "/card.svg", encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("<path"))
    }

    @Test("--check-digit adds the mod-16 character")
    func checkDigit() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run([
            "show", "--id", "A37859B", "--check-digit", "--png", home.path + "/c.png",
        ])
        #expect(result.status == 0)
        #expect(try decodeFile(home.path + "/c.png") == ["A37859+B"])
        _ = try await GymcardProcess(home: home.path).run(["set", "--no-passphrase", "A37859B"])
        let stored = try await GymcardProcess(home: home.path).run([
            "show", "--check-digit", "--png", home.path + "/s.png",
        ])
        #expect(stored.status == 0)
        #expect(
            try decodeFile(home.path + "/s.png") == ["A37859+B"], "the stored card gets the check digit too")
    }

    @Test("--png - writes the PNG to standard output")
    func pngToStdout() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run([
            "show", "--id", "905123456", "--png", "-",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.starts(with: PNGCodec.signature))
        let image = try PNGCodec.decodeGray([UInt8](result.stdout))
        #expect(ZBarReader().decode(image).map(\.text) == ["A905123456B"])
    }

    @Test("piped: a plain drawing that still scans, and a note on stderr that colours are off")
    func pipedDrawing() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["show", "--id", "905123456"])
        #expect(result.status == 0)
        #expect(!result.stdoutText.contains("\u{1B}"))
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("colours are off"))
        #expect(
            result.stderr.contains("the barcode is drawn in plain characters")
                && result.stderr.contains("--png <file>"))
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(ZBarReader().decode(rasterize(lines, fullBlockWidth: 11)).map(\.text) == ["A905123456B"])
    }

    @Test("a bare --qr draws the QR on the terminal, and it scans")
    func qrOnTerminal() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path, extra: ["NO_COLOR": "1"]).run([
            "show", "--id", "905123456", "--qr",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.contains("NO_COLOR"))
        #expect(
            result.stderr.contains("the QR code is drawn in plain characters")
                && result.stderr.contains("--qr <file>"))
        #expect(!result.stderr.contains("bars"), "a QR code has no bars")
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(ZBarReader().decode(rasterize(lines, fullBlockWidth: 11)).map(\.text) == ["A905123456B"])
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badCases: [BadCase] = [
        BadCase(arguments: ["show"], status: 66, message: "no stored card"),
        BadCase(arguments: ["show", "--id", "12x4"], status: 65, message: "'x' at position 3"),
        BadCase(arguments: ["show", "--id", ""], status: 65, message: "empty"),
        BadCase(arguments: ["show", "--id", "12A4"], status: 65, message: "start/stop letter"),
        BadCase(
            arguments: ["show", "--id", String(repeating: "7", count: 70)], status: 65, message: "up to 60"),
        BadCase(arguments: ["show", "--id", "123456789", "--scale", "0"], status: 64, message: "scale of 0"),
        BadCase(
            arguments: ["show", "--id", "123456789", "--scale", "10000"], status: 64, message: "use 1 to 32"),
        BadCase(arguments: ["show", "--id", "123456789", "--ratio", "4"], status: 64, message: "2.0-3.0"),
        BadCase(
            arguments: ["show", "--id", "123456789", "--scale", "1", "--ratio", "2"], status: 64,
            message: "--scale 2"),
        BadCase(arguments: ["show", "--id", "123456789", "--bogus"], status: 64, message: "--bogus"),
        BadCase(
            arguments: ["show", "--id", "123456789", "--timeout", "-1"], status: 64,
            message: "--timeout must be 0 to 86400 seconds"),
        // An image scan would refuse is not written.
        BadCase(
            arguments: ["show", "--id", "123456789", "--scale", "32", "--height", "1000", "--png", "-"],
            status: 64, message: "32000 pixels tall, more than the 20000 px per side"),
        // Refused before the stored card's passphrase is asked for.
        BadCase(
            arguments: ["show", "--scale", "32", "--height", "1000", "--png", "-"], status: 64,
            message: "32000 pixels tall"),
        // Only the QR code: the barcode image's options would be ignored.
        BadCase(
            arguments: ["show", "--id", "123456789", "--qr", "-", "--text"], status: 64,
            message: "--text is for"),
        BadCase(
            arguments: ["show", "--id", "123456789", "--qr", "--ratio", "2.5"], status: 64,
            message: "--ratio is for"),
    ]

    @Test("bad input: one line on stderr, the documented exit code, nothing on stdout", arguments: badCases)
    func badInput(_ badCase: BadCase) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(badCase.arguments)
        #expect(result.status == badCase.status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(badCase.message))
        if badCase.status != 64 {
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.hasPrefix("gymcard: "))
        }
    }

    @Test("an unwritable or directory output path fails with 74 and leaves nothing behind")
    func unwritableOutput() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try FileManager.default.createDirectory(
            atPath: home.path + "/dir", withIntermediateDirectories: false)
        try Data("x".utf8).write(to: URL(fileURLWithPath: home.path + "/file"))
        for target in [home.path + "/dir", home.path + "/file/card.png", home.path + "/missing/card.png"] {
            let result = try await gymcard.run(["show", "--id", "123456789", "--png", target])
            #expect(result.status == 74, "\(target)")
            #expect(result.stderrLines.count == 1)
        }
        #expect(try home.contents() == ["dir", "file"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/dir").isEmpty)
    }

    @Test("40 columns turn the barcode a quarter; too narrow a terminal for any form says what each needs")
    func tooNarrow() async throws {
        let home = try TemporaryDirectory()
        let turned = try await GymcardProcess(home: home.path, extra: ["COLUMNS": "40"]).run([
            "show", "--id", "123456789",
        ])
        #expect(turned.status == 0)
        let lines = turned.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(lines.count >= 78 && lines.allSatisfy { $0.count <= 40 })
        // Plain characters (a pipe has no colours), in a font whose █ fills the cell.
        let image = rasterize(lines, fullBlockWidth: 11)
        #expect(await OffThePool.compute { ZBarReader().decode(image).map(\.text) } == ["A123456789B"])

        let result = try await GymcardProcess(home: home.path, extra: ["COLUMNS": "7"]).run([
            "show", "--id", "123456789",
        ])
        #expect(result.status == 74)
        #expect(
            result.stderr.contains(
                "the terminal is 7 columns wide, too small for the card: it needs 78 columns, 8 columns turned, "
                    + "or 29 columns for its QR code; enlarge the window, or write the barcode with --png <file>"
            ),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

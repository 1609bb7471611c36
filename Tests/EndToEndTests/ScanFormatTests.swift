import Codabar
import Foundation
import Imaging
import Symbols
import TestSupport
import Testing

/// What phones write, made in the test by the Debian tools that write them from a rendered card in colour
/// (navy bars on cream).
@Suite("gymcard scan, the files phones, scanners and browsers write")
struct ScanFormatTests {
    static let id = "A905123456B"

    /// A colour PNG of the card, written to the directory, and its path.
    static func colourCard(in directory: String) throws -> String {
        let bars = CodabarRaster.image(
            of: try CodabarSymbol(normalizing: id), style: try BarcodeStyle(narrowBarWidth: 4, barHeight: 120)
        )
        // A quiet margin around it, as on a real card.
        let margin = 60
        var card = RGBImage(width: bars.width + 2 * margin, height: bars.height + 2 * margin)
        for y in 0..<card.height {
            for x in 0..<card.width {
                let isDark =
                    (margin..<margin + bars.width).contains(x) && (margin..<margin + bars.height).contains(y)
                    && bars[x - margin, y - margin]
                let colour: [UInt8] = isDark ? [20, 40, 120] : [250, 235, 200]
                card.pixels.replaceSubrange(
                    (y * card.width + x) * 3..<(y * card.width + x + 1) * 3, with: colour)
            }
        }
        let path = directory + "/card.png"
        try Data(try PNGCodec.encode(card)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs a Debian tool; its standard output goes to `output` when given.
    static func tool(_ name: String, _ arguments: [String], output: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
        process.arguments = arguments
        if let output {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name) \(arguments.joined(separator: " "))")
    }

    @Test(
        "colour photos as phones save them read: HEIC 4:2:0, 4:4:4 and 10-bit, AVIF, and a CMYK JPEG"
    )
    func colourPhotos() async throws {
        let home = try TemporaryDirectory()
        let directory = home.path
        let png = try Self.colourCard(in: directory)
        try Self.tool("pngtopnm", [png], output: directory + "/card.ppm")
        try Self.tool("pamdepth", ["65535", directory + "/card.ppm"], output: directory + "/card16.ppm")
        try Self.tool("pnmtopng", [directory + "/card16.ppm"], output: directory + "/card16.png")
        // heif-enc as the issue has it: `heif-enc -q 60 -o card.heic photo.png` (4:2:0, 8 bits).
        try Self.tool("heif-enc", ["-q", "60", "-o", directory + "/card.heic", png])
        try Self.tool("heif-enc", ["-q", "60", "-p", "chroma=444", "-o", directory + "/card-444.heic", png])
        try Self.tool(
            "heif-enc",
            ["-q", "60", "-b", "10", "-o", directory + "/card-10bit.heic", directory + "/card16.png"])
        try Self.tool("heif-enc", ["-A", "-q", "60", "-o", directory + "/card.avif", png])
        // An AVIF in RGB: the identity matrix, 4:4:4.
        try Self.tool(
            "heif-enc",
            [
                "-A", "-q", "80", "--matrix_coefficients", "0", "-p", "chroma=444", "-o",
                directory + "/rgb.avif", png,
            ])
        try Self.tool("convert", [png, "-colorspace", "CMYK", directory + "/card-cmyk.jpg"])
        let files = [
            "card.heic", "card-444.heic", "card-10bit.heic", "card.avif", "rgb.avif", "card-cmyk.jpg",
        ]
        let gymcard = GymcardProcess(home: home.path)
        let read = try await gymcard.run(["scan", "--budget", "30"] + files.map { directory + "/" + $0 })
        #expect(read.status == 0, "\(read.stderrLines)")
        #expect(read.stdoutText == files.map { "\(directory)/\($0): \(Self.id)\n" }.joined())
    }
}

import Foundation
import TestSupport
import Testing

/// A photo a tester made with zint and ImageMagick, one byte of its JPEG data changed: gymcard printed
/// `401217` as an Interleaved 2 of 5 ID (exit 0; zbarimg and zxing-cpp read nothing), two lines of the
/// threshold stage reading six digits out of the Codabar bars across the tear.
@Suite("gymcard scan, a damaged photo someone else made")
struct ForeignDamagedPhotoTests {
    @Test("a Codabar card turned 33° on green, one byte changed, gives no ITF ID")
    func noInterleavedTwoOfFive() async throws {
        let home = try TemporaryDirectory()
        let directory = home.path
        try await ScanFormatTests.tool(
            "zint", ["-b", "18", "-d", "A1234567B", "-o", directory + "/base.png"])
        try await ScanFormatTests.tool(
            "convert",
            [
                directory + "/base.png", "-bordercolor", "white", "-border", "40", "-scale", "300%",
                "-background", "#2e8b57", "-rotate", "-33", directory + "/turned.png",
            ])
        let jpeg = directory + "/turned.jpg"
        try await ScanFormatTests.tool(
            "convert", [directory + "/turned.png", "-quality", "95", "-sampling-factor", "1x1", jpeg])
        let gymcard = GymcardProcess(home: home.path)
        let whole = try await gymcard.run(["scan", jpeg], timeoutSeconds: 600)
        #expect(whole.stdoutText == "A1234567B\n", "\(whole.stderrLines)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
        // The byte changed is where the tester's was: in another JPEG (another ImageMagick or libjpeg) it
        // would damage something else, and the test would no longer test the ITF read. Find it again then.
        try #require(bytes.count == 173_184, "ImageMagick wrote a different JPEG (\(bytes.count) bytes)")
        bytes[109_439] = 0xC9
        try Data(bytes).write(to: URL(fileURLWithPath: jpeg))
        let damaged = try await gymcard.run(["scan", "--all", jpeg], timeoutSeconds: 600)
        #expect(["", "A1234567B\n"].contains(damaged.stdoutText), "\(damaged.stdoutText)")
    }
}

import Foundation
import TestSupport
import Testing

/// The real photos in ../shared/realworld/codabar-photos (absent outside this workspace).
private let realPhotos = GymcardProcess.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/realworld/codabar-photos")

@Suite("gymcard scan with the second engine (zxing-cpp), end to end")
struct SecondEngineScanTests {
    /// zxing's tiny 183×68 scan, narrow bars about 1 px: libzbar misses it behind the whole cascade.
    static let tinyScan = realPhotos.appendingPathComponent("zxing-codabar-1/14.png").path

    static var tinyScanPresent: Bool { FileManager.default.fileExists(atPath: tinyScan) }

    @Test(
        "the tiny real scan zxing-codabar-1/14.png reads: zxing-cpp reads or confirms it",
        .enabled(
            if: Prerequisite.runs(tinyScanPresent),
            "../shared/realworld/codabar-photos is not beside the package"))
    func tinyScanReads() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run([
            "scan", "--json", Self.tinyScan,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["id"] as? String == "A31117013206375A")
        // libzbar reads it only in an aggressive stage (upscaled), which alone is not trusted, and a zxing-cpp
        // read never stands alone: the two engines agreeing make it a read (without libZXing it is not, see
        // below). Without a budget the whole cascade runs however slow the machine.
        #expect((object["confirmations"] as? Int ?? 0) >= 2, "\(object)")
    }

    @Test(
        "without libZXing, scan reads with libzbar alone and says nothing of it; the tiny scan is then not read",
        .enabled(
            if: ScanCommandTests.canHide("libZXing.so.1.4.0") && Prerequisite.runs(tinyScanPresent),
            "mount namespaces (unshare -m), libzxing2 and ../shared/realworld/codabar-photos are needed"))
    func withoutLibZXing() async throws {
        let library = "libZXing.so.1.4.0"
        let webcam = GymcardProcess.packageRoot.appendingPathComponent("samples/card-webcam.jpg").path
        let (status, message) = try await ScanCommandTests.scanHiding(library, ["scan", webcam])
        #expect(status == 0)
        #expect(message.isEmpty)
        let (tinyStatus, tinyMessage) = try await ScanCommandTests.scanHiding(
            library, ["scan", Self.tinyScan])
        #expect(tinyStatus == 1)
        #expect(tinyMessage.hasPrefix("gymcard: \(Self.tinyScan): "), "\(tinyMessage)")
        #expect(!tinyMessage.dropFirst("gymcard: \(Self.tinyScan)".count).lowercased().contains("zxing"))
    }
}

import Foundation
import TestSupport
import Testing

/// QR codes that are no member ID (a gym's web address on a card's back or a poster), made by Debian's
/// qrencode and photographed with ImageMagick: turned, blurred and saved as JPEG.
@Suite("gymcard scan, a QR code that is not a member ID")
struct ForeignQRScanTests {
    static let address = "https://recsports.example.edu/join?from=card"

    /// A photo of a QR code holding the web address, written to the directory; its path.
    static func photographedQR(in directory: String) async throws -> String {
        try await ScanFormatTests.tool("qrencode", ["-s", "6", "-o", directory + "/qr.png", address])
        let photo = directory + "/qr-photo.jpg"
        try await ScanFormatTests.tool(
            "convert",
            [
                directory + "/qr.png", "-background", "rgb(200,200,190)", "-rotate", "23", "-blur", "0x1.2",
                "-quality", "70", photo,
            ])
        return photo
    }

    @Test("a photo of a QR code with a web address says so (exit 1), not 'no barcode found'; --all lists it")
    func webAddressOnly() async throws {
        let home = try TemporaryDirectory()
        let photo = try await Self.photographedQR(in: home.path)
        let gymcard = GymcardProcess(home: home.path)
        let message =
            "gymcard: \(photo): found a QR code with a web address, not a member ID, and no other barcode; photograph the side with the card's barcode"

        let plain = try await gymcard.run(["scan", photo], timeoutSeconds: 600)
        #expect(plain.status == 1)
        #expect(plain.stdout.isEmpty)
        #expect(plain.stderrLines == [message])

        // --all: every distinct barcode, this one too; still no ID, so still 1 and the same line.
        let all = try await gymcard.run(["scan", "--all", photo], timeoutSeconds: 600)
        #expect(all.status == 1)
        #expect(all.stdoutText == Self.address + "\n")
        #expect(all.stderrLines == [message])

        let json = try await gymcard.run(["scan", "--all", "--json", photo], timeoutSeconds: 600)
        let objects = try json.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(objects.first?["text"] as? String == Self.address)
        #expect(objects.first?["symbology"] as? String == "qr")
        #expect(objects.first?["id"] == nil)
        #expect(objects.last?["status"] as? Int == 1)
    }

    @Test(
        "a document whose page holds only such a QR code says so, not 'no barcode found on any of its pages'")
    func webAddressInADocument() async throws {
        let home = try TemporaryDirectory()
        let directory = home.path
        try await ScanFormatTests.tool("qrencode", ["-s", "6", "-o", directory + "/qr.png", Self.address])
        try await ScanFormatTests.tool("pngtopnm", [directory + "/qr.png"], output: directory + "/qr.pnm")
        try await ScanFormatTests.tool("pnmtotiff", [directory + "/qr.pnm"], output: directory + "/qr.tif")
        let blank = "P5\n640 480\n255\n".utf8 + [UInt8](repeating: 255, count: 640 * 480)
        try Data(blank).write(to: URL(fileURLWithPath: directory + "/blank.pgm"))
        try await ScanFormatTests.tool(
            "pnmtotiff", [directory + "/blank.pgm"], output: directory + "/blank.tif")
        try await ScanFormatTests.tool(
            "tiffcp", [directory + "/blank.tif", directory + "/qr.tif", directory + "/document.tif"])
        let result = try await GymcardProcess(home: home.path).run(
            ["scan", directory + "/document.tif"], timeoutSeconds: 600)
        #expect(result.status == 1)
        #expect(
            result.stderrLines == [
                "gymcard: \(directory)/document.tif: no member ID on any of its 2 pages: found a QR code with a web address, not a member ID, and no other barcode; photograph the side with the card's barcode"
            ])
    }

    @Test("a QR code that is not a member ID does not end the scan: the card's Codabar beside it is read")
    func webAddressBesideTheCard() async throws {
        let home = try TemporaryDirectory()
        try await ScanFormatTests.tool("qrencode", ["-s", "4", "-o", home.path + "/qr.png", Self.address])
        // The sample card at an angle needs a later stage than the one that reads the upright QR code; the
        // QR code's read ended the scan before that stage ran ("no barcode found").
        let photo = home.path + "/card-and-qr.jpg"
        try await ScanFormatTests.tool(
            "convert",
            [
                ScanCommandTests.samples + "/card-rotated.jpg", home.path + "/qr.png", "-geometry", "+20+20",
                "-composite", "-quality", "85", photo,
            ])
        let gymcard = GymcardProcess(home: home.path)
        let read = try await gymcard.run(["scan", photo], timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdoutText == "C12-345:678/90D\n")
        // --all lists the ID first, then the web address.
        let all = try await gymcard.run(["scan", "--all", photo], timeoutSeconds: 600)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdoutText == "C12-345:678/90D\n\(Self.address)\n")
    }
}

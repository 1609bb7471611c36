import Foundation
import Imaging
import TestSupport
import Testing

@Suite("PNM, TIFF and WebP")
struct PNMAndLoadedFormatTests {
    /// Black and white stripes with a grey column: every sample level a PNM can say.
    static let picture = GrayImage(
        width: 5, height: 2, pixels: [0, 255, 0, 255, 128, 255, 0, 255, 0, 128])

    /// The picture in each PNM kind, with comments where the header allows them.
    static func pnm(_ kind: Int) -> [UInt8] {
        let samples = picture.pixels
        let header = "P\(kind)\n# written by a test\n5 # width\n2\n"
        switch kind {
        case 1:  // plain PBM, 1 is black; grey is light; digits may run together
            return Array((header + "01010\n1 0 1 0 1\n").utf8)
        case 2:
            return Array((header + "255\n" + samples.map(String.init).joined(separator: " ") + "\n").utf8)
        case 3:
            return Array(
                (header + "255\n" + samples.map { "\($0) \($0) \($0)" }.joined(separator: "\n") + "\n").utf8)
        case 4:
            return Array(header.utf8) + [0b0101_0000, 0b1010_1000]
        case 5:  // 16-bit samples, big-endian
            return Array((header + "65535\n").utf8) + samples.flatMap { [$0, $0] }
        default:
            return Array((header + "255\n").utf8) + samples.flatMap { [$0, $0, $0] }
        }
    }

    @Test("P1 to P6 decode to the same grey picture, 16-bit and comments included", arguments: 1...6)
    func pnmKinds(kind: Int) throws {
        let decoded = try ImageFile.decodeGray(Self.pnm(kind))
        let bitmap = GrayImage(width: 5, height: 2, pixels: [255, 0, 255, 0, 255, 0, 255, 0, 255, 0])
        #expect(decoded == (kind == 1 || kind == 4 ? bitmap : Self.picture))
    }

    /// The picture as a PAM file of each picture tuple type (netpbm's `P7`; 0 is black in every one).
    static func pam(_ tupleType: String) -> [UInt8] {
        let samples = picture.pixels
        let (depth, maximum, body): (Int, Int, [UInt8])
        switch tupleType {
        case "BLACKANDWHITE": (depth, maximum, body) = (1, 1, samples.map { $0 > 127 ? 1 : 0 })
        case "GRAYSCALE": (depth, maximum, body) = (1, 65535, samples.flatMap { [$0, $0] })
        case "GRAYSCALE_ALPHA": (depth, maximum, body) = (2, 255, samples.flatMap { [$0, 255] })
        case "RGB": (depth, maximum, body) = (3, 255, samples.flatMap { [$0, $0, $0] })
        default:  // RGB_ALPHA: black where opaque, on white where transparent
            (depth, maximum, body) = (4, 255, samples.flatMap { [0, 0, 0, 255 - $0] })
        }
        let header =
            "P7\n# written by a test\nWIDTH 5\nHEIGHT 2\nDEPTH \(depth)\nMAXVAL \(maximum)\nTUPLTYPE \(tupleType)\nENDHDR\n"
        return Array(header.utf8) + body
    }

    @Test(
        "PAM files of every picture tuple type decode to the picture (16-bit, transparency on white)",
        arguments: ["BLACKANDWHITE", "GRAYSCALE", "GRAYSCALE_ALPHA", "RGB", "RGB_ALPHA"])
    func pamTupleTypes(tupleType: String) throws {
        let decoded = try ImageFile.decodeGray(Self.pam(tupleType))
        let bilevel = GrayImage(width: 5, height: 2, pixels: Self.picture.pixels.map { $0 > 127 ? 255 : 0 })
        #expect(decoded == (tupleType == "BLACKANDWHITE" ? bilevel : Self.picture))
    }

    @Test("a PAM cut short is damaged; one whose tuple type is no picture is refused by name")
    func pamRefused() {
        #expect(throws: ImagingError.corrupt(format: "PAM", detail: "the file ends after 1 of 2 rows")) {
            try ImageFile.decodeGray(Array(Self.pam("RGB").dropLast(3)))
        }
        let flow = Array("P7\nWIDTH 5\nHEIGHT 2\nDEPTH 2\nMAXVAL 255\nTUPLTYPE FLOWFIELD\nENDHDR\n".utf8)
        #expect(throws: ImagingError.unsupportedPAMTupleType("FLOWFIELD")) {
            try ImageFile.decodeGray(flow + [UInt8](repeating: 0, count: 20))
        }
        #expect(
            throws: ImagingError.corrupt(
                format: "PAM", detail: "the header lacks WIDTH, HEIGHT, DEPTH, MAXVAL or ENDHDR")
        ) {
            try ImageFile.decodeGray(Array("P7\nWIDTH 5\nHEIGHT 2\n".utf8))
        }
    }

    @Test("a PNM cut short or with a broken header is damaged, in one line", arguments: [2, 5, 6])
    func pnmCut(kind: Int) {
        let whole = Self.pnm(kind)
        for bytes in [Array(whole.dropLast(8)), Array("P\(kind)\n5\n".utf8)] {
            do {
                _ = try ImageFile.decodeGray(bytes)
                Issue.record("a damaged P\(kind) decoded")
            } catch {
                #expect(error.description.hasPrefix("the PNM data is damaged or cut short ("))
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test("a large PNM is averaged down as it is read, to no less than the side asked for")
    func pnmReduced() throws {
        // 900×300, a black left third: reduced by 4 (longer side 225 ≥ 200).
        let rows = (0..<300).flatMap { _ in (0..<900).map { $0 < 300 ? UInt8(0) : 255 } }
        let image = try ImageFile.decodeGray(Array("P5 900 300 255\n".utf8) + rows, minimumLongSide: 200)
        #expect(image.width == 225 && image.height == 75)
        #expect(image[0, 0] == 0 && image[74, 10] == 0 && image[75, 10] == 255 && image[224, 74] == 255)
    }

    @Test("WebP and TIFF are read now; GIF and BMP are still named and refused")
    func readableFormats() {
        #expect(ForeignImageFormat.webp.isReadable && ForeignImageFormat.tiff.isReadable)
        #expect(!ForeignImageFormat.gif.isReadable && !ForeignImageFormat.bmp.isReadable)
        for header in [
            Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8),
            [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0],
        ] {
            do {
                _ = try ImageFile.decodeGray(header)
                Issue.record("a bare header decoded")
            } catch {
                #expect(error.description.contains("data is damaged or cut short ("), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test("a TIFF of three pages made by tiffcp has three pages, each decoded on its own")
    func tiffPages() async throws {
        let directory = try TemporaryDirectory()
        let pages: [UInt8] = [0, 128, 255]
        var paths: [String] = []
        for level in pages {
            let pgm = directory.path + "/\(level).pgm"
            try Data(Array("P5 40 30 255\n".utf8) + [UInt8](repeating: level, count: 1200)).write(
                to: URL(fileURLWithPath: pgm))
            paths.append(directory.path + "/\(level).tif")
            try await run("/usr/bin/pnmtotiff", [pgm], output: paths.last ?? "")
        }
        try await run("/usr/bin/tiffcp", paths + [directory.path + "/pages.tif"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.path + "/pages.tif")))
        #expect(try ImageFile.pageCount(bytes) == 3)
        for (page, level) in pages.enumerated() {
            let image = try ImageFile.decodeGray(bytes, page: page)
            #expect(image.width == 40 && image.height == 30)
            #expect(image.pixels.allSatisfy { $0 == level }, "page \(page + 1)")
        }
    }

    private func run(_ executable: String, _ arguments: [String], output: String? = nil) async throws {
        let result = try await ChildProcess.run(executable, arguments)
        if let output { try result.stdout.write(to: URL(fileURLWithPath: output)) }
        #expect(result.status == 0, "\(executable): \(result.stderrText)")
    }
}

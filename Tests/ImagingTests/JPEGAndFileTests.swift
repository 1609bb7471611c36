import Foundation
import Imaging
import TestSupport
import Testing

/// A greyscale test pattern with detail at every scale.
func pattern(width: Int, height: Int) -> GrayImage {
    var image = GrayImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width { image[x, y] = UInt8((x / 8 + y / 8) % 2 == 0 ? 40 : 220) }
    }
    return image
}

/// A real JPEG whose frame header (SOF0) is patched to claim the given size. JPEG stores dimensions in
/// 16 bits, so 65535 is the most a header can claim.
func forgedJPEG(width: Int, height: Int) throws -> [UInt8] {
    var jpeg = try JPEGCodec.encode(pattern(width: 16, height: 16), quality: 80)
    let marker = try #require((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
    jpeg[marker + 5] = UInt8(height >> 8)
    jpeg[marker + 6] = UInt8(height & 0xFF)
    jpeg[marker + 7] = UInt8(width >> 8)
    jpeg[marker + 8] = UInt8(width & 0xFF)
    return jpeg
}

@Suite("JPEG through TurboJPEG")
struct JPEGCodecTests {
    @Test("encode and decode keep the picture (within JPEG's loss)")
    func roundTrip() throws {
        let image = pattern(width: 64, height: 48)
        let decoded = try JPEGCodec.decodeGray(try JPEGCodec.encode(image, quality: 95))
        #expect(decoded.width == 64 && decoded.height == 48)
        let error =
            zip(image.pixels, decoded.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / image.pixels.count
        #expect(error < 6)
    }

    @Test(
        "a large photo is decoded at a reduced scale, never below the asked long side",
        arguments: [100, 400, 800, 1600])
    func scaledDecode(minimumLongSide: Int) throws {
        let jpeg = try JPEGCodec.encode(pattern(width: 1600, height: 1200), quality: 80)
        let decoded = try JPEGCodec.decodeGray(jpeg, minimumLongSide: minimumLongSide)
        #expect(decoded.width >= minimumLongSide)
        #expect(decoded.width < 2 * max(minimumLongSide, 200) || decoded.width == 1600)
        #expect(decoded.height * 4 == decoded.width * 3)
    }

    @Test("a header claiming 65000×65000 (4 gigapixels) is refused before decoding")
    func absurdDimensions() throws {
        let jpeg = try forgedJPEG(width: 65000, height: 65000)
        #expect(throws: ImagingError.tooLarge(width: 65000, height: 65000)) { try JPEGCodec.decodeGray(jpeg) }
    }

    @Test("a truncated JPEG is refused, not decoded half grey", arguments: [0.2, 0.5, 0.8, 0.95])
    func truncated(fraction: Double) throws {
        let jpeg = try JPEGCodec.encode(pattern(width: 256, height: 256), quality: 90)
        let cut = Array(jpeg.prefix(Int(Double(jpeg.count) * fraction)))
        #expect(throws: ImagingError.self) { try JPEGCodec.decodeGray(cut) }
    }
}

@Suite("Reading photo files")
struct ImageFileTests {
    @Test("JPEG and PNG are recognised by content, not by name")
    func formats() throws {
        let image = pattern(width: 32, height: 16)
        #expect(try ImageFile.decodeGray(try PNGCodec.encode(image)) == image)
        #expect(try ImageFile.decodeGray(try JPEGCodec.encode(image, quality: 90)).width == 32)
        #expect(throws: ImagingError.unrecognizedFormat) {
            try ImageFile.decodeGray(Array("not an image\n".utf8))
        }
    }

    @Test(
        "formats gymcard does not read are named by their signature, and the message says how to convert them",
        arguments: [
            (Array("GIF89a".utf8) + [1, 0, 1, 0], ForeignImageFormat.gif, "giftopnm"),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 30), .bmp, "bmptopnm"),
        ] as [([UInt8], ForeignImageFormat, String)])
    func foreignFormats(bytes: [UInt8], format: ForeignImageFormat, advice: String) {
        #expect(ForeignImageFormat(signatureOf: bytes) == format)
        #expect(!format.isReadable)
        #expect(throws: ImagingError.unsupportedFormat(format)) { try ImageFile.decodeGray(bytes) }
        let message = ImagingError.unsupportedFormat(format).description
        #expect(message.contains(format.rawValue) && message.contains(advice))
        #expect(!message.contains("\n"))
    }

    @Test(
        "HEIC and AVIF are recognised by their ISO media brand and read through libheif",
        arguments: [
            ("heic", ForeignImageFormat.heic), ("mif1", .heic), ("heix", .heic), ("avif", .avif),
        ])
    func heifBrands(brand: String, format: ForeignImageFormat) {
        let header = [0, 0, 0, 24] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0]
        #expect(ForeignImageFormat(signatureOf: header) == format)
        #expect(format.isReadable)
        // A header alone is no photo: libheif's own words say why, on one line.
        do {
            _ = try ImageFile.decodeGray(header)
            Issue.record("a bare \(brand) header decoded")
        } catch {
            #expect(error.description.hasPrefix("the \(format.rawValue) data is damaged or cut short ("))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a file that is no image at all, or a box of another brand, is not named")
    func unknownSignatures() {
        #expect(ForeignImageFormat(signatureOf: Array("not an image\n".utf8)) == nil)
        #expect(ForeignImageFormat(signatureOf: [0, 0, 0, 24] + Array("ftypisom".utf8)) == nil)
        #expect(
            ForeignImageFormat(signatureOf: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)) == nil)
        #expect(ForeignImageFormat(signatureOf: []) == nil)
    }

    @Test("missing, directory and empty files are told apart")
    func readErrors() throws {
        let directory = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: directory.path + "/empty.jpg", contents: Data())
        #expect(throws: ImageFile.ReadError.missing(path: directory.path + "/none.jpg")) {
            try ImageFile.readBytes(path: directory.path + "/none.jpg")
        }
        #expect(throws: ImageFile.ReadError.directory(path: directory.path)) {
            try ImageFile.readBytes(path: directory.path)
        }
        #expect(throws: ImageFile.ReadError.empty(path: directory.path + "/empty.jpg")) {
            try ImageFile.readBytes(path: directory.path + "/empty.jpg")
        }
    }
}

@Suite("Filters")
struct FilterTests {
    @Test("area downscaling averages whole blocks")
    func downscale() {
        let image = GrayImage(width: 4, height: 2, pixels: [0, 100, 200, 200, 100, 0, 200, 200])
        let small = image.downscaled(toMaximumSide: 2)
        #expect(small.width == 2 && small.height == 1)
        #expect(small.pixels == [50, 200])
    }

    @Test("blur keeps the mean and removes most of the noise")
    func blur() {
        var generator = SeededGenerator(seed: 3)
        let noisy = GrayImage(
            width: 100, height: 100,
            pixels: (0..<10_000).map { _ in UInt8.random(in: 100...156, using: &generator) })
        let smooth = noisy.blurred(sigma: 1.5)
        #expect(abs(smooth.meanBrightness - noisy.meanBrightness) < 1)
        func spread(_ image: GrayImage) -> Double {
            let mean = image.meanBrightness
            return image.pixels.map { (Double($0) - mean) * (Double($0) - mean) }.reduce(0, +)
                / Double(image.pixels.count)
        }
        #expect(spread(smooth) < spread(noisy) / 4)
    }

    @Test("Otsu splits a two-level image between its levels")
    func otsu() {
        let image = GrayImage(width: 10, height: 1, pixels: [30, 32, 35, 30, 31, 200, 210, 205, 199, 202])
        #expect((35..<199).contains(Int(image.otsuLevel)))
        #expect(image.thresholded().pixels == [0, 0, 0, 0, 0, 255, 255, 255, 255, 255])
    }

    @Test("rotating by 90° turns rows into columns; the canvas grows to hold any angle")
    func rotate() {
        var image = GrayImage(width: 5, height: 3)
        image[4, 0] = 0
        let turned = image.rotated(degrees: 90)
        #expect(turned.width == 3 && turned.height == 5)
        #expect(turned.pixels.filter { $0 < 128 }.count == 1)
        let diagonal = GrayImage(width: 100, height: 50).rotated(degrees: 45)
        #expect(diagonal.width >= 106 && diagonal.height >= 106)
    }

    @Test("2× upscaling doubles the size and keeps the picture")
    func upscale() {
        let big = pattern(width: 16, height: 16).upscaled(by: 2)
        #expect(big.width == 32 && big.height == 32)
        #expect(big[0, 0] < 128 && big[20, 4] > 128)
    }

    @Test(
        "a sharp stretch across: rows widen, columns stay, a flat image stays flat, a 1-pixel bar stays dark")
    func stretchedSharply() {
        let flat = GrayImage(width: 10, height: 3, filledWith: 200).stretchedSharply(by: 3)
        #expect(flat.width == 30 && flat.height == 3)
        #expect(flat.pixels.allSatisfy { $0 == 200 })
        var bar = GrayImage(width: 21, height: 2, filledWith: 230)
        for y in 0..<2 { bar[10, y] = 30 }
        let sharp = bar.stretchedSharply(by: 3)
        let soft = bar.upscaled(by: 3)
        // Output pixels 30…32 cover the bar: Lanczos keeps its edges darker than bilinear does.
        #expect(sharp[30, 0] < soft[30, 0] && sharp[32, 0] < soft[32, 0])
        #expect(sharp[31, 0] == 30)
    }

    @Test("transposing turns rows into columns exactly, and twice gives the image back")
    func transposed() {
        let image = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let turned = image.transposed()
        #expect(turned.width == 2 && turned.height == 3)
        #expect(turned.pixels == [1, 4, 2, 5, 3, 6])
        let picture = pattern(width: 17, height: 9)
        #expect(picture.transposed().transposed() == picture)
    }

    @Test("an extracted, rotated rectangle comes out upright")
    func extracted() {
        var image = GrayImage(width: 200, height: 200)
        // A dark bar along the 30° direction through the centre.
        for step in -60...60 {
            let x = 100 + Int((Double(step) * cos(Double.pi / 6)).rounded())
            let y = 100 + Int((Double(step) * sin(Double.pi / 6)).rounded())
            for dy in -1...1 { image[x, y + dy] = 0 }
        }
        let upright = image.extracted(
            centerX: 100, centerY: 100, angleDegrees: 30, width: 100, height: 20, sourcePixelsPerPixel: 1)
        // The bar now runs along the middle row.
        #expect((0..<100).filter { upright[$0, 10] < 128 }.count > 90)
        #expect((0..<100).filter { upright[$0, 2] < 128 }.isEmpty)
    }
}

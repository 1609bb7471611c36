import Imaging
import TestSupport
import Testing

@Suite("PNG through libpng")
struct PNGCodecTests {
    @Test("a two-colour image survives a round trip as a 1-bit greyscale PNG")
    func bitRoundTrip() throws {
        var image = BitImage(width: 37, height: 5)
        image.fill(x: 3, y: 0, width: 7, height: 5)
        image.fill(x: 30, y: 2, width: 20, height: 1)
        let png = try PNGCodec.encode(image)
        #expect(png[24] == 1, "bit depth")
        #expect(png[25] == 0, "greyscale colour type")
        #expect(!String(decoding: png, as: UTF8.self).contains("PLTE"))
        #expect(try PNGCodec.decodeGray(png) == image.grayImage)
    }

    @Test("no sRGB chunk is written for black and white")
    func noSRGB() throws {
        let png = try PNGCodec.encode(BitImage(width: 8, height: 8))
        #expect(!String(decoding: png, as: UTF8.self).contains("sRGB"))
        #expect(try PNGCodec.decodeGray(png).pixels.allSatisfy { $0 == 255 })
    }

    @Test("an 8-bit grey image survives a round trip")
    func grayRoundTrip() throws {
        let image = GrayImage(width: 16, height: 16, pixels: (0..<256).map { UInt8($0) })
        #expect(try PNGCodec.decodeGray(try PNGCodec.encode(image)) == image)
    }

    @Test("a header claiming 100000×100000 is refused before any pixel memory is allocated")
    func absurdDimensions() {
        #expect(throws: ImagingError.tooLarge(width: 100_000, height: 100_000)) {
            try PNGCodec.decodeGray(forgedPNGHeader(width: 100_000, height: 100_000))
        }
    }

    @Test(
        "a too-large image is told which limit it is over",
        arguments: [
            (
                100_000, 10,
                "the image claims to be 100000×10 pixels, more than the 20000 px per side gymcard reads"
            ),
            (
                20_000, 20_000,
                "the image claims to be 20000×20000 pixels (400 megapixels), more than the 200 megapixels gymcard reads"
            ),
        ])
    func tooLargeMessage(width: UInt32, height: UInt32, message: String) {
        #expect(throws: ImagingError.tooLarge(width: Int(width), height: Int(height))) {
            try PNGCodec.decodeGray(forgedPNGHeader(width: width, height: height))
        }
        #expect(ImagingError.tooLarge(width: Int(width), height: Int(height)).description == message)
    }

    /// Cut anywhere before the end of the image data; a file missing only IEND still has every pixel.
    @Test("a truncated PNG is reported as damaged", arguments: [0.1, 0.3, 0.5, 0.7, 0.9])
    func truncated(fraction: Double) throws {
        var image = GrayImage(width: 64, height: 64)
        for index in image.pixels.indices {
            image.pixels[index] = UInt8(truncatingIfNeeded: index &* 7919 >> 3)
        }
        let png = try PNGCodec.encode(image)
        let keep = Int(Double(png.count - 12) * fraction)
        #expect(throws: ImagingError.self) { try PNGCodec.decodeGray(Array(png.prefix(keep))) }
    }

    @Test("bytes that are not a PNG are refused", arguments: [[], Array("hello, world".utf8), [0x89, 0x50]])
    func notPNG(bytes: [UInt8]) {
        #expect(throws: ImagingError.unrecognizedFormat) { try PNGCodec.decodeGray(bytes) }
    }
}

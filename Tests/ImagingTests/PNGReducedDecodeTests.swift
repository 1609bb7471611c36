import Imaging
import TestSupport
import Testing

/// The mean of each `factor`×`factor` block of `image` (partial blocks at the edges), rounded.
func areaMean(_ image: GrayImage, factor: Int) -> GrayImage {
    let width = (image.width + factor - 1) / factor
    let height = (image.height + factor - 1) / factor
    var pixels = [UInt8](repeating: 0, count: width * height)
    for by in 0..<height {
        for bx in 0..<width {
            var sum = 0
            var count = 0
            for y in by * factor..<min(image.height, (by + 1) * factor) {
                for x in bx * factor..<min(image.width, (bx + 1) * factor) {
                    sum += Int(image[x, y])
                    count += 1
                }
            }
            pixels[by * width + bx] = UInt8((sum + count / 2) / count)
        }
    }
    return GrayImage(width: width, height: height, pixels: pixels)
}

@Suite("Large PNGs decoded reduced, row by row")
struct PNGReducedDecodeTests {
    /// Bars of several widths with a gradient, so that every block differs.
    static func pattern(_ x: Int, _ y: Int) -> UInt8 { UInt8((x * 7 + (x / 5 % 2) * 90 + y) % 256) }

    @Test("grey: each pixel is the mean of its block, edges included; small images are not reduced")
    func grey() throws {
        let png = RawPNG(width: 100, height: 71).encode { [Self.pattern($0, $1)] }
        let full = try PNGCodec.decodeGray(png)
        #expect(full.width == 100 && full.height == 71)
        let reduced = try PNGCodec.decodeGray(png, minimumLongSide: 30)
        #expect(reduced.width == 34 && reduced.height == 24)
        #expect(reduced == areaMean(full, factor: 3))
        // Less than twice the side asked for: decoded as it is.
        #expect(try PNGCodec.decodeGray(png, minimumLongSide: 51) == full)
    }

    @Test(
        "grey with alpha over white, and RGB greys read as the full decode does",
        arguments: [
            RawPNG.ColourType.gray, .grayAlpha, .rgb, .rgba,
        ])
    func formats(colourType: RawPNG.ColourType) throws {
        let png = RawPNG(width: 90, height: 40, colourType: colourType).encode { x, y in
            let value = Self.pattern(x, y)
            switch colourType {
            case .gray: return [value]
            case .grayAlpha: return [value, 255]
            case .rgb: return [value, value, value]
            case .rgba: return [value, value, value, 255]
            }
        }
        let reduced = try PNGCodec.decodeGray(png, minimumLongSide: 45)
        let expected = areaMean(try PNGCodec.decodeGray(png), factor: 2)
        #expect(reduced.width == expected.width && reduced.height == expected.height)
        let worst = zip(reduced.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(worst)")
    }

    @Test(
        "16 bits are read by their high byte (libpng's simplified decoder takes them for linear light instead)"
    )
    func sixteenBits() throws {
        let eight = RawPNG(width: 90, height: 40).encode { [Self.pattern($0, $1)] }
        let sixteen = RawPNG(width: 90, height: 40, bitDepth: 16).encode { [Self.pattern($0, $1)] }
        #expect(
            try PNGCodec.decodeGray(sixteen, minimumLongSide: 30)
                == (try PNGCodec.decodeGray(eight, minimumLongSide: 30)))
    }

    @Test("transparent pixels are white, as in the full decode")
    func transparency() throws {
        let png = RawPNG(width: 60, height: 20, colourType: .grayAlpha).encode { x, _ in
            x < 30 ? [0, 0] : [0, 255]
        }
        let reduced = try PNGCodec.decodeGray(png, minimumLongSide: 20)
        #expect(reduced[0, 0] == 255)
        #expect(reduced[19, 0] == 0)
    }

    @Test("interlaced (Adam7): read from the last pass, the same as the plain file for vertical bars")
    func interlaced() throws {
        let bars: (Int, Int) -> [UInt8] = { x, _ in [x / 3 % 2 == 0 ? 0 : 255] }
        let plain = try PNGCodec.decodeGray(RawPNG(width: 120, height: 50).encode(bars), minimumLongSide: 40)
        let adam7 = try PNGCodec.decodeGray(
            RawPNG(width: 120, height: 50, interlaced: true).encode(bars), minimumLongSide: 40)
        #expect(adam7 == plain)
        // And the simplified (full) decoder agrees on the interlaced file.
        #expect(
            try PNGCodec.decodeGray(RawPNG(width: 120, height: 50, interlaced: true).encode(bars)).width
                == 120)
    }

    @Test("a file cut short or damaged is refused with libpng's reason, as in the full decode")
    func damaged() throws {
        let png = RawPNG(width: 400, height: 300).encode { [Self.pattern($0, $1)] }
        let cut = Array(png.prefix(png.count / 2))
        #expect(throws: ImagingError.self) { try PNGCodec.decodeGray(cut, minimumLongSide: 100) }
        var flipped = png
        flipped[png.count / 2] ^= 0xFF
        #expect(throws: ImagingError.self) { try PNGCodec.decodeGray(flipped, minimumLongSide: 100) }
    }
}

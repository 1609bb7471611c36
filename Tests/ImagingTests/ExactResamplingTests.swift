import Glibc
import Testing

@testable import Imaging

// The resampling written for speed (a row at a time, an inside fast path, vectorized block sums, rounding
// without libm) must give the very bytes of the plain code it replaced: the seeded corpus, the damaged
// photos and every read's trace stay the same. The references below are that plain code.

/// Rounded half away from zero and clamped, as `rounded()` does.
private func referenceByte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }

/// The bilinear sample as it was: each of the four neighbours checked, `fill` outside.
private func referenceBilinear(_ image: GrayImage, _ x: Double, _ y: Double, fill: UInt8) -> UInt8 {
    guard x > -1, y > -1, x < Double(image.width), y < Double(image.height) else { return fill }
    let x0 = Int(x.rounded(.down))
    let y0 = Int(y.rounded(.down))
    let (fx, fy) = (x - Double(x0), y - Double(y0))
    func sample(_ sx: Int, _ sy: Int) -> Double {
        guard sx >= 0, sy >= 0, sx < image.width, sy < image.height else { return Double(fill) }
        return Double(image.pixels[sy * image.width + sx])
    }
    let top = sample(x0, y0) * (1 - fx) + sample(x0 + 1, y0) * fx
    let bottom = sample(x0, y0 + 1) * (1 - fx) + sample(x0 + 1, y0 + 1) * fx
    return referenceByte(top * (1 - fy) + bottom * fy)
}

private func noise(width: Int, height: Int, seed: UInt64) -> GrayImage {
    var state = seed
    let pixels = (0..<(width * height)).map { _ -> UInt8 in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
    return GrayImage(width: width, height: height, pixels: pixels)
}

@Suite("Resampling equals the plain code to the bit")
struct ExactResamplingTests {
    @Test("a byte is the value rounded half away from zero and clamped, at every half and beyond the ends")
    func byteRounding() {
        var values: [Double] = [
            -1e9, -300, -0.5, -0.49, -0.0, 0, 0.25, 0.49999999999999994, 0.5, 1e9, 255, 255.4,
        ]
        for whole in 0...256 {
            let base = Double(whole)
            values += [
                base - 0.5, base + 0.5, base.nextDown + 0.5, (base + 0.5).nextDown, (base + 0.5).nextUp,
            ]
        }
        var state: UInt64 = 7
        for _ in 0..<10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            values.append(Double(state >> 11) / Double(1 << 53) * 300 - 20)
        }
        for value in values { #expect(GrayImage.byte(value) == referenceByte(value), "\(value)") }
    }

    @Test(
        "an extracted rectangle equals one sampled pixel by pixel, at the border and inside, and row by row")
    func extraction() {
        let image = noise(width: 97, height: 61, seed: 3)
        for (angle, scale) in [(0.0, 1.0), (17.3, 0.7), (-63.1, 1.9), (90.0, 1.0), (181.5, 2.5)] {
            let (width, height) = (140, 71)
            let (centerX, centerY) = (40.3, 33.9)
            let extracted = image.extracted(
                centerX: centerX, centerY: centerY, angleDegrees: angle, width: width, height: height,
                sourcePixelsPerPixel: scale)
            let radians = angle * Double.pi / 180
            var expected: [UInt8] = []
            for v in 0..<height {
                let dv = (Double(v) + 0.5 - Double(height) / 2) * scale
                for u in 0..<width {
                    let du = (Double(u) + 0.5 - Double(width) / 2) * scale
                    expected.append(
                        referenceBilinear(
                            image, centerX + du * cos(radians) - dv * sin(radians) - 0.5,
                            centerY + du * sin(radians) + dv * cos(radians) - 0.5, fill: 255))
                }
            }
            #expect(extracted.pixels == expected, "angle \(angle)")
            for row in [0, 1, height / 2, height - 1] {
                let alone = image.extractedRow(
                    row, centerX: centerX, centerY: centerY, angleDegrees: angle, width: width,
                    height: height,
                    sourcePixelsPerPixel: scale)
                #expect(alone == Array(extracted.pixels[row * width..<(row + 1) * width]), "angle \(angle)")
            }
        }
    }

    @Test("a turned image equals one sampled pixel by pixel", arguments: [22.5, -45, 67.5, 180])
    func rotation(degrees: Double) {
        let image = noise(width: 53, height: 29, seed: 11)
        let turned = image.rotated(degrees: degrees)
        let radians = degrees * Double.pi / 180
        var expected: [UInt8] = []
        for y in 0..<turned.height {
            let dy = Double(y) - Double(turned.height - 1) / 2
            for x in 0..<turned.width {
                let dx = Double(x) - Double(turned.width - 1) / 2
                expected.append(
                    referenceBilinear(
                        image, cos(radians) * dx - sin(radians) * dy + Double(image.width - 1) / 2,
                        sin(radians) * dx + cos(radians) * dy + Double(image.height - 1) / 2, fill: 255))
            }
        }
        #expect(turned.pixels == expected)
    }

    @Test(
        "an area downscale is each block's mean, rounded down", arguments: [(1000, 10), (601, 300), (64, 7)])
    func downscale(width: Int, maximumSide: Int) {
        let image = noise(width: width, height: width * 3 / 4, seed: 5)
        let small = image.downscaled(toMaximumSide: maximumSide)
        let factor = (max(image.width, image.height) + maximumSide - 1) / maximumSide
        #expect(small.width == image.width / factor && small.height == image.height / factor)
        var expected: [UInt8] = []
        for outY in 0..<small.height {
            for outX in 0..<small.width {
                var sum = 0
                for y in outY * factor..<(outY + 1) * factor {
                    for x in outX * factor..<(outX + 1) * factor {
                        sum += Int(image.pixels[y * image.width + x])
                    }
                }
                expected.append(UInt8(sum / (factor * factor)))
            }
        }
        #expect(small.pixels == expected)
    }
}

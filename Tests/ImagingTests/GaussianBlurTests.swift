import Foundation
import Imaging
import Testing

/// The blur as plain loops (each output pixel's sum over k from -radius to radius, edges clamped): what the
/// arranged-for-speed version must equal to the bit, so that the seeded corpus stays the same.
private func referenceBlur(_ image: GrayImage, sigma: Double) -> [UInt8] {
    let (width, height) = (image.width, image.height)
    let radius = max(1, Int((3 * sigma).rounded(.up)))
    var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = kernel.reduce(0, +)
    kernel = kernel.map { $0 / total }
    var middle = [Double](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            var sum = 0.0
            for k in -radius...radius {
                sum += kernel[k + radius] * Double(image.pixels[y * width + min(width - 1, max(0, x + k))])
            }
            middle[y * width + x] = sum
        }
    }
    var output = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            var sum = 0.0
            for k in -radius...radius {
                sum += kernel[k + radius] * middle[min(height - 1, max(0, y + k)) * width + x]
            }
            output[y * width + x] = UInt8(min(255, max(0, sum.rounded())))
        }
    }
    return output
}

@Suite("Gaussian blur")
struct GaussianBlurTests {
    @Test(
        "equals the plain two-pass blur to the bit, on noise, at every size and sigma used",
        arguments: [(1, 1, 1.0), (3, 2, 1.0), (37, 23, 1.0), (64, 9, 1.5), (120, 80, 2.6), (5, 50, 0.4)])
    func matchesReference(width: Int, height: Int, sigma: Double) {
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let image = GrayImage(width: width, height: height, pixels: pixels)
        #expect(image.blurred(sigma: sigma).pixels == referenceBlur(image, sigma: sigma))
    }
}

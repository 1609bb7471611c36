import Glibc

extension GrayImage {
    /// Gaussian blur of standard deviation `sigma` pixels, as two 1-D passes with edges clamped.
    ///
    /// σ≈1 before zbar cures the sensor noise of phone photos (DESIGN §5).
    public func blurred(sigma: Double) -> GrayImage {
        guard sigma > 0, width > 0, height > 0 else { return self }
        let radius = Swift.max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { offset in exp(-Double(offset * offset) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        var horizontal = [Double](repeating: 0, count: pixels.count)
        var output = [UInt8](repeating: 0, count: pixels.count)
        let width = width
        let height = height
        pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { middle in
                kernel.withUnsafeBufferPointer { weights in
                    for y in 0..<height {
                        let row = y * width
                        for x in 0..<width {
                            var sum = 0.0
                            for k in -radius...radius {
                                let sx = Swift.min(width - 1, Swift.max(0, x + k))
                                sum += weights[k + radius] * Double(source[row + sx])
                            }
                            middle[row + x] = sum
                        }
                    }
                    output.withUnsafeMutableBufferPointer { destination in
                        for y in 0..<height {
                            for x in 0..<width {
                                var sum = 0.0
                                for k in -radius...radius {
                                    let sy = Swift.min(height - 1, Swift.max(0, y + k))
                                    sum += weights[k + radius] * middle[sy * width + x]
                                }
                                destination[y * width + x] = UInt8(
                                    Swift.min(255, Swift.max(0, sum.rounded())))
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: output)
    }
}

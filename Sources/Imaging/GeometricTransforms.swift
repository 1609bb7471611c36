import Glibc

extension GrayImage {
    /// Rotated counter-clockwise by `degrees` about the centre, on a canvas large enough for all of it;
    /// the uncovered corners are white.
    public func rotated(degrees: Double) -> GrayImage {
        let radians = degrees * Double.pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        // Less a hair, so that 90° (cos ≈ 6e-17) does not add a pixel.
        let newWidth = Int((abs(Double(width) * cosine) + abs(Double(height) * sine) - 1e-9).rounded(.up))
        let newHeight = Int((abs(Double(width) * sine) + abs(Double(height) * cosine) - 1e-9).rounded(.up))
        var output = [UInt8](repeating: 255, count: newWidth * newHeight)
        let centerX = Double(width - 1) / 2
        let centerY = Double(height - 1) / 2
        let newCenterX = Double(newWidth - 1) / 2
        let newCenterY = Double(newHeight - 1) / 2
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<newHeight {
                    let dy = Double(y) - newCenterY
                    for x in 0..<newWidth {
                        let dx = Double(x) - newCenterX
                        // Inverse mapping: where in the source does this output pixel come from?
                        let sourceX = cosine * dx - sine * dy + centerX
                        let sourceY = sine * dx + cosine * dy + centerY
                        destination[y * newWidth + x] = Self.bilinear(
                            source, width, height, sourceX, sourceY, fill: 255)
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: output)
    }

    /// Rows turned into columns (a mirror across the diagonal): exact, no resampling, so that an operation
    /// on rows (``stretchedSharply(by:)``) can be applied to columns.
    public func transposed() -> GrayImage {
        var output = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { output[x * height + y] = pixels[y * width + x] }
        }
        return GrayImage(width: height, height: width, pixels: output)
    }

    /// A rectangle of the image, clipped to its bounds.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> GrayImage {
        let left = Swift.max(0, x)
        let top = Swift.max(0, y)
        let right = Swift.min(width, x + cropWidth)
        let bottom = Swift.min(height, y + cropHeight)
        guard left < right, top < bottom else { return GrayImage(width: 0, height: 0, pixels: []) }
        var output: [UInt8] = []
        output.reserveCapacity((right - left) * (bottom - top))
        for row in top..<bottom { output += pixels[row * width + left..<row * width + right] }
        return GrayImage(width: right - left, height: bottom - top, pixels: output)
    }

    /// The sample at a fractional position, interpolated from its four neighbours; `fill` outside.
    @inline(__always)
    static func bilinear(
        _ source: UnsafeBufferPointer<UInt8>, _ width: Int, _ height: Int, _ x: Double, _ y: Double,
        fill: UInt8
    ) -> UInt8 {
        guard x > -1, y > -1, x < Double(width), y < Double(height) else { return fill }
        // Truncation is the floor for x ≥ 0 (and without a call to libm's floor).
        let x0 = x >= 0 ? Int(x) : -1
        let y0 = y >= 0 ? Int(y) : -1
        let fx = x - Double(x0)
        let fy = y - Double(y0)
        if x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height {
            // Inside, the four neighbours without a bounds check each (the same sums as below).
            let index = y0 * width + x0
            let top = Double(source[index]) * (1 - fx) + Double(source[index + 1]) * fx
            let bottom = Double(source[index + width]) * (1 - fx) + Double(source[index + width + 1]) * fx
            return byte(top * (1 - fy) + bottom * fy)
        }
        func sample(_ sx: Int, _ sy: Int) -> Double {
            guard sx >= 0, sy >= 0, sx < width, sy < height else { return Double(fill) }
            return Double(source[sy * width + sx])
        }
        let top = sample(x0, y0) * (1 - fx) + sample(x0 + 1, y0) * fx
        let bottom = sample(x0, y0 + 1) * (1 - fx) + sample(x0 + 1, y0 + 1) * fx
        return byte(top * (1 - fy) + bottom * fy)
    }

    /// `value` rounded half away from zero and clamped to 0…255: what `UInt8(min(255, max(0,
    /// value.rounded())))` gives, without the call to libm's `round` that Swift makes for `rounded()` on
    /// processors before SSE4.1 (the baseline it compiles for), and without a conversion that can trap, so
    /// that loops of it vectorize. Adding 1.5 × 2⁵² rounds a value in 0…255 to the nearest integer, ties to
    /// even, into the low bits (doubles that large are whole numbers); a tie rounded down is moved up.
    @inline(__always)
    static func byte(_ value: Double) -> UInt8 {
        let clamped = Swift.min(Swift.max(value, 0), 255)
        let shifted = clamped + 6_755_399_441_055_744.0
        let nearest = UInt8(truncatingIfNeeded: shifted.bitPattern)
        return nearest &+ (clamped - (shifted - 6_755_399_441_055_744.0) == 0.5 ? 1 : 0)
    }
}

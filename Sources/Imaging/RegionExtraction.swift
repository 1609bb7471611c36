import Glibc

extension GrayImage {
    /// A rectangle of the image at any angle, resampled upright: the output's x axis runs along
    /// `angleDegrees` (counter-clockwise from the image's x axis, y pointing down), `sourcePixelsPerPixel`
    /// source pixels per output pixel, centred on (`centerX`, `centerY`). Outside the image is white.
    public func extracted(
        centerX: Double, centerY: Double, angleDegrees: Double, width outputWidth: Int,
        height outputHeight: Int,
        sourcePixelsPerPixel scale: Double
    ) -> GrayImage {
        let (width, height) = (width, height)
        return resampled(
            centerX: centerX, centerY: centerY, angleDegrees: angleDegrees, width: outputWidth,
            height: outputHeight, scale: scale
        ) { source, x, y in Self.bilinear(source, width, height, x, y, fill: 255) }
    }

    /// Row `row` of ``extracted(centerX:centerY:angleDegrees:width:height:sourcePixelsPerPixel:)``, the
    /// same bytes, computed alone: for a caller that looks at a few rows of a large strip (the read guard's
    /// footprint walks rows out from the middle of a strip that is mostly quiet zone and background).
    public func extractedRow(
        _ row: Int, centerX: Double, centerY: Double, angleDegrees: Double, width outputWidth: Int,
        height outputHeight: Int, sourcePixelsPerPixel scale: Double
    ) -> [UInt8] {
        let (width, height) = (width, height)
        let radians = angleDegrees * Double.pi / 180
        var output = [UInt8](repeating: 255, count: outputWidth)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                Self.resampleRow(
                    row, into: destination, at: 0, centerX: centerX, centerY: centerY,
                    cosine: cos(radians), sine: sin(radians), width: outputWidth, height: outputHeight,
                    scale: scale
                ) { x, y in Self.bilinear(source, width, height, x, y, fill: 255) }
            }
        }
        return output
    }

    /// The output rectangle's pixels mapped into the image (their centres, in the image's pixel
    /// coordinates), each sampled by `sample`; the one mapping both extractions share.
    @inline(__always)
    private func resampled(
        centerX: Double, centerY: Double, angleDegrees: Double, width outputWidth: Int,
        height outputHeight: Int,
        scale: Double, sample: (UnsafeBufferPointer<UInt8>, Double, Double) -> UInt8
    ) -> GrayImage {
        let radians = angleDegrees * Double.pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        var output = [UInt8](repeating: 255, count: outputWidth * outputHeight)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for v in 0..<outputHeight {
                    Self.resampleRow(
                        v, into: destination, at: v * outputWidth, centerX: centerX,
                        centerY: centerY, cosine: cosine, sine: sine, width: outputWidth,
                        height: outputHeight, scale: scale
                    ) { x, y in sample(source, x, y) }
                }
            }
        }
        return GrayImage(width: outputWidth, height: outputHeight, pixels: output)
    }

    /// One output row: each pixel's centre mapped into the image and sampled there.
    @inline(__always)
    private static func resampleRow(
        _ v: Int, into destination: UnsafeMutableBufferPointer<UInt8>, at start: Int, centerX: Double,
        centerY: Double,
        cosine: Double, sine: Double, width outputWidth: Int, height outputHeight: Int, scale: Double,
        sample: (Double, Double) -> UInt8
    ) {
        let halfWidth = Double(outputWidth) / 2
        let dv = (Double(v) + 0.5 - Double(outputHeight) / 2) * scale
        for u in 0..<outputWidth {
            let du = (Double(u) + 0.5 - halfWidth) * scale
            let x = centerX + du * cosine - dv * sine - 0.5
            let y = centerY + du * sine + dv * cosine - 0.5
            destination[start + u] = sample(x, y)
        }
    }
}

extension GrayImage {
    /// The same rectangle as ``extracted(centerX:centerY:angleDegrees:width:height:sourcePixelsPerPixel:)``,
    /// sampled with a Lanczos-3 kernel in both directions instead of bilinear: for cutting a barcode out
    /// finer than the photo's own pixels, where bilinear sampling softens bars of about a pixel (sampling
    /// along the located bar direction between the pixels). Outside the image is white.
    public func extractedSharply(
        centerX: Double, centerY: Double, angleDegrees: Double, width outputWidth: Int,
        height outputHeight: Int, sourcePixelsPerPixel scale: Double
    ) -> GrayImage {
        let (width, height) = (width, height)
        var weightsX = [Double](repeating: 0, count: 6)
        var weightsY = [Double](repeating: 0, count: 6)
        return resampled(
            centerX: centerX, centerY: centerY, angleDegrees: angleDegrees, width: outputWidth,
            height: outputHeight, scale: scale
        ) { source, x, y in
            guard x > -1, y > -1, x < Double(width), y < Double(height) else { return 255 }
            let firstX = Int(x.rounded(.down)) - 2
            let firstY = Int(y.rounded(.down)) - 2
            var totalX = 0.0
            var totalY = 0.0
            for tap in 0..<6 {
                weightsX[tap] = Self.lanczos3Table(Double(firstX + tap) - x)
                weightsY[tap] = Self.lanczos3Table(Double(firstY + tap) - y)
                totalX += weightsX[tap]
                totalY += weightsY[tap]
            }
            var value = 0.0
            if firstX >= 0, firstY >= 0, firstX + 5 < width, firstY + 5 < height {
                for row in 0..<6 {
                    let start = (firstY + row) * width + firstX
                    var line = 0.0
                    for column in 0..<6 {
                        line += Double(source[start + column]) * weightsX[column]
                    }
                    value += line * weightsY[row]
                }
            } else {
                for row in 0..<6 {
                    // Clamped to the edge inside the image, as the other samplers do.
                    let sy = Swift.min(height - 1, Swift.max(0, firstY + row))
                    var line = 0.0
                    for column in 0..<6 {
                        let sx = Swift.min(width - 1, Swift.max(0, firstX + column))
                        line += Double(source[sy * width + sx]) * weightsX[column]
                    }
                    value += line * weightsY[row]
                }
            }
            value /= totalX * totalY
            return Self.byte(value)
        }
    }
}

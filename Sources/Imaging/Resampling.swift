import Glibc

extension GrayImage {
    /// Shrinks by averaging whole blocks of pixels until the longer side is at most `maximumSide`.
    ///
    /// Area averaging is also the cheapest cure for sensor noise: zbar fails on noise of σ≈6 grey levels
    /// in a 12 MP photo, and a 4× area reduction divides it by four (ARCHITECTURE §5).
    public func downscaled(toMaximumSide maximumSide: Int) -> GrayImage {
        let factor = (Swift.max(width, height) + maximumSide - 1) / Swift.max(1, maximumSide)
        guard factor > 1 else { return self }
        let newWidth = width / factor
        let newHeight = height / factor
        guard newWidth > 0, newHeight > 0 else { return self }
        var output = [UInt8](repeating: 0, count: newWidth * newHeight)
        let area = factor * factor
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                var sums = [Int](repeating: 0, count: newWidth)
                for outY in 0..<newHeight {
                    for index in 0..<newWidth { sums[index] = 0 }
                    for y in outY * factor..<(outY + 1) * factor {
                        let row = y * width
                        for outX in 0..<newWidth {
                            var sum = 0
                            let start = row + outX * factor
                            for x in start..<start + factor { sum += Int(source[x]) }
                            sums[outX] += sum
                        }
                    }
                    let base = outY * newWidth
                    for outX in 0..<newWidth { destination[base + outX] = UInt8(sums[outX] / area) }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: output)
    }

    /// Enlarges by an integer factor with bilinear interpolation, so a 1-pixel bar keeps soft edges that
    /// zbar's edge detector can place (ARCHITECTURE §5: 2× cures narrow bars of at most 1 px).
    public func upscaled(by factor: Int) -> GrayImage {
        guard factor > 1 else { return self }
        let newWidth = width * factor
        let newHeight = height * factor
        var output = [UInt8](repeating: 0, count: newWidth * newHeight)
        let scale = 1.0 / Double(factor)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<newHeight {
                    // Clamped to the edge: the border pixels continue outwards, they do not fade to white.
                    let sourceY = Swift.min(Double(height - 1), Swift.max(0, (Double(y) + 0.5) * scale - 0.5))
                    for x in 0..<newWidth {
                        let sourceX = Swift.min(
                            Double(width - 1), Swift.max(0, (Double(x) + 0.5) * scale - 0.5))
                        destination[y * newWidth + x] = Self.bilinear(
                            source, width, height, sourceX, sourceY, fill: 255)
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: output)
    }

    /// Stretched across by an integer factor with a Lanczos-3 kernel (rows only; columns are kept).
    ///
    /// For an upright crop of a barcode whose bars are about a pixel wide: bilinear and bicubic
    /// enlargement leave such bars too soft for zbar's edge detector, Lanczos keeps their contrast (a
    /// 1-pixel Codabar that neither read after 2× or 3× bilinear or bicubic enlargement read after
    /// Lanczos, checked with Pillow and zbarimg).
    public func stretchedSharply(by factor: Int) -> GrayImage {
        guard factor > 1, width > 0 else { return self }
        let newWidth = width * factor
        // Per output column: the first source column and the six Lanczos weights, normalised.
        var firstColumn = [Int](repeating: 0, count: newWidth)
        var weights = [Double](repeating: 0, count: newWidth * 6)
        for x in 0..<newWidth {
            let center = (Double(x) + 0.5) / Double(factor) - 0.5
            let first = Int(center.rounded(.down)) - 2
            firstColumn[x] = first
            var total = 0.0
            for tap in 0..<6 {
                let weight = Self.lanczos3(Double(first + tap) - center)
                weights[x * 6 + tap] = weight
                total += weight
            }
            for tap in 0..<6 { weights[x * 6 + tap] /= total }
        }
        var output = [UInt8](repeating: 0, count: newWidth * height)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<newWidth {
                        var value = 0.0
                        for tap in 0..<6 {
                            // Clamped to the edge, as ``upscaled(by:)`` does.
                            let column = Swift.min(width - 1, Swift.max(0, firstColumn[x] + tap))
                            value += Double(source[row + column]) * weights[x * 6 + tap]
                        }
                        destination[y * newWidth + x] = UInt8(Swift.min(255, Swift.max(0, value.rounded())))
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: height, pixels: output)
    }

    /// The Lanczos kernel with three lobes.
    /// ``lanczos3(_:)`` at 1/1024 of a pixel, looked up: a cut of a few hundred thousand pixels needs
    /// twelve weights each, and `sin` made most of its time (measured with perf on a 12 MP photo).
    static func lanczos3Table(_ distance: Double) -> Double {
        let position = (distance + 3) * 1024
        guard position >= 0, position < Double(lanczosTable.count - 1) else { return 0 }
        return lanczosTable[Int(position + 0.5)]
    }

    private static let lanczosTable: [Double] = (0...(6 * 1024)).map { lanczos3(Double($0) / 1024 - 3) }

    static func lanczos3(_ distance: Double) -> Double {
        let x = Swift.abs(distance)
        guard x < 3 else { return 0 }
        guard x > 1e-9 else { return 1 }
        let pix = Double.pi * x
        return 3 * sin(pix) * sin(pix / 3) / (pix * pix)
    }

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
        let x0 = Int(x.rounded(.down))
        let y0 = Int(y.rounded(.down))
        let fx = x - Double(x0)
        let fy = y - Double(y0)
        func sample(_ sx: Int, _ sy: Int) -> Double {
            guard sx >= 0, sy >= 0, sx < width, sy < height else { return Double(fill) }
            return Double(source[sy * width + sx])
        }
        let top = sample(x0, y0) * (1 - fx) + sample(x0 + 1, y0) * fx
        let bottom = sample(x0, y0 + 1) * (1 - fx) + sample(x0 + 1, y0 + 1) * fx
        return UInt8(Swift.min(255, Swift.max(0, (top * (1 - fy) + bottom * fy).rounded())))
    }
}

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
        let halfWidth = Double(outputWidth) / 2
        let halfHeight = Double(outputHeight) / 2
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                for v in 0..<outputHeight {
                    let dv = (Double(v) + 0.5 - halfHeight) * scale
                    for u in 0..<outputWidth {
                        let du = (Double(u) + 0.5 - halfWidth) * scale
                        let x = centerX + du * cosine - dv * sine - 0.5
                        let y = centerY + du * sine + dv * cosine - 0.5
                        destination[v * outputWidth + u] = sample(source, x, y)
                    }
                }
            }
        }
        return GrayImage(width: outputWidth, height: outputHeight, pixels: output)
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
            return UInt8(Swift.min(255, Swift.max(0, value.rounded())))
        }
    }
}

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
        let area = UInt32(factor * factor)
        var sums = [UInt32](repeating: 0, count: newWidth)
        // Sums of at most 255 × factor² in UInt32, below 2³² for any factor up to 4104 (an image is at most
        // 20000 px a side, and no caller shrinks one below a few hundred), so wrapping arithmetic never
        // wraps; a loop per column of the block: the compiler vectorizes each (measured: 4x faster than one
        // loop over the factor inside one over the columns).
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                sums.withUnsafeMutableBufferPointer { sums in
                    for outY in 0..<newHeight {
                        for index in 0..<newWidth { sums[index] = 0 }
                        for y in outY * factor..<(outY + 1) * factor {
                            for column in 0..<factor {
                                let row = UnsafeBufferPointer(rebasing: source[(y * width + column)...])
                                for outX in 0..<newWidth { sums[outX] &+= UInt32(row[outX &* factor]) }
                            }
                        }
                        let base = outY * newWidth
                        for outX in 0..<newWidth {
                            destination[base + outX] = UInt8(truncatingIfNeeded: sums[outX] / area)
                        }
                    }
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

    /// Enlarged by an integer factor, each pixel repeated (nearest neighbour): a drawn symbol's 1-pixel
    /// modules stay black and white, as a reader that cannot resolve a 1-pixel module needs them.
    public func repeated(by factor: Int) -> GrayImage {
        guard factor > 1 else { return self }
        let newWidth = width * factor
        var output = [UInt8](repeating: 0, count: newWidth * height * factor)
        for y in 0..<height {
            let row = pixels[(y * width)..<((y + 1) * width)].flatMap { repeatElement($0, count: factor) }
            for copy in 0..<factor {
                output.replaceSubrange(
                    ((y * factor + copy) * newWidth)..<((y * factor + copy + 1) * newWidth), with: row)
            }
        }
        return GrayImage(width: newWidth, height: height * factor, pixels: output)
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
                        destination[y * newWidth + x] = Self.byte(value)
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
}

extension GrayImage {
    /// Whether every pixel is pure black or pure white: a symbol as software drew it (gymcard's PNG, zint's,
    /// an SVG rasterized with crisp edges), never a photo or a scan. Stops at the first grey pixel.
    public var isBilevel: Bool {
        !pixels.isEmpty && !pixels.contains { $0 != 0 && $0 != 255 }
    }

    /// Whether a third of the pixels or more are pure black or white: a drawing decoded reduced (each pixel
    /// the mean of a block, grey where a block straddles an edge: 11500 px of 10-px modules averaged in 6-px
    /// blocks kept about 40% pure). A photo's sensor noise leaves few; only an overexposed one gets here.
    public var isMostlyBilevel: Bool {
        !pixels.isEmpty && 3 * pixels.lazy.filter({ $0 == 0 || $0 == 255 }).count >= pixels.count
    }

    /// The image light for dark: a symbol drawn light on dark (a phone's screen in dark mode, a negated
    /// print) as readers expect it, dark on light.
    public func inverted() -> GrayImage {
        var copy = self
        for index in copy.pixels.indices { copy.pixels[index] = 255 - copy.pixels[index] }
        return copy
    }

    /// Mean grey level, 0 (black) to 255 (white).
    public var meanBrightness: Double {
        guard !pixels.isEmpty else { return 0 }
        return Double(pixels.reduce(0) { $0 + Int($1) }) / Double(pixels.count)
    }

    /// How sharp the image is: the mean of the largest tenth of horizontal and vertical differences
    /// between neighbours. Sharp printed bars give tens of grey levels; a badly blurred photo a few.
    public var edgeStrength: Double {
        guard width > 2, height > 2 else { return 0 }
        var differences: [Int] = []
        differences.reserveCapacity((width - 1) * (height - 1) / 4)
        // Every other row and column is plenty for a summary.
        for y in stride(from: 0, to: height - 1, by: 2) {
            for x in stride(from: 0, to: width - 1, by: 2) {
                let value = Int(pixels[y * width + x])
                differences.append(
                    Swift.max(
                        abs(value - Int(pixels[y * width + x + 1])),
                        abs(value - Int(pixels[(y + 1) * width + x]))))
            }
        }
        differences.sort(by: >)
        let top = differences.prefix(Swift.max(1, differences.count / 10))
        return Double(top.reduce(0, +)) / Double(top.count)
    }
}

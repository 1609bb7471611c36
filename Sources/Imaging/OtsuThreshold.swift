extension GrayImage {
    /// The grey level that best splits the histogram into dark and light (Otsu's method: the split that
    /// maximises the variance between the two classes).
    public var otsuLevel: UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        for value in pixels { histogram[Int(value)] += 1 }
        let total = Double(pixels.count)
        let weightedTotal = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var backgroundCount = 0.0
        var backgroundSum = 0.0
        var best = (level: 127, variance: -1.0)
        for level in 0..<256 {
            backgroundCount += Double(histogram[level])
            guard backgroundCount > 0 else { continue }
            let foregroundCount = total - backgroundCount
            guard foregroundCount > 0 else { break }
            backgroundSum += Double(level * histogram[level])
            let backgroundMean = backgroundSum / backgroundCount
            let foregroundMean = (weightedTotal - backgroundSum) / foregroundCount
            let variance =
                backgroundCount * foregroundCount * (backgroundMean - foregroundMean)
                * (backgroundMean - foregroundMean)
            if variance > best.variance { best = (level, variance) }
        }
        return UInt8(best.level)
    }

    /// Black and white at the Otsu level: evens out low contrast and soft lighting.
    public func thresholded() -> GrayImage {
        let level = otsuLevel
        return GrayImage(width: width, height: height, pixels: pixels.map { $0 <= level ? 0 : 255 })
    }
}

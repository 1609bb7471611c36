import Imaging

/// The upright strip the read guard's footprint walks (``SymbolFootprint``), sampled a row at a time when
/// a row is first looked at: the walk starts at the middle row and stops two rows past the symbol's bars,
/// so most of a strip that is 1.2 times the symbol's length tall (quiet zones, background) is never sampled.
/// Each row is the same bytes as that row of the whole extracted strip.
final class FootprintStrip {
    let width: Int
    let height: Int
    private let image: GrayImage
    private let center: (x: Double, y: Double)
    private let angleDegrees: Double
    private let scale: Double
    private var rows: [Int: [UInt8]] = [:]
    private var profiles: [Int: [Double]] = [:]

    init(
        of image: GrayImage, centerX: Double, centerY: Double, angleDegrees: Double, width: Int, height: Int,
        sourcePixelsPerPixel scale: Double
    ) {
        self.image = image
        self.center = (centerX, centerY)
        self.angleDegrees = angleDegrees
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// Row `y` of the strip.
    func row(_ y: Int) -> [UInt8] {
        if let row = rows[y] { return row }
        let row = image.extractedRow(
            y, centerX: center.x, centerY: center.y, angleDegrees: angleDegrees, width: width, height: height,
            sourcePixelsPerPixel: scale)
        rows[y] = row
        return row
    }

    /// Row `y` averaged with the rows above and below it.
    func profile(_ y: Int) -> [Double] {
        if let profile = profiles[y] { return profile }
        let (above, middle, below) = (row(y - 1), row(y), row(y + 1))
        let profile = (0..<width).map { x in (Double(above[x]) + Double(middle[x]) + Double(below[x])) / 3 }
        profiles[y] = profile
        return profile
    }
}

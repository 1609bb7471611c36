import Glibc
import Imaging

/// Where a linear barcode probably is in an image, and at what angle.
public struct BarcodeRegion: Sendable, Equatable {
    /// Centre, in the analysed image's pixels.
    public var centerX: Double
    /// Centre, in the analysed image's pixels.
    public var centerY: Double
    /// Direction across the bars (the gradient's), degrees counter-clockwise from the x axis (y down).
    public var angleDegrees: Double
    /// Extent across the bars, pixels, margins included.
    public var length: Double
    /// Extent along the bars, pixels, margins included.
    public var height: Double
    /// How strongly bar-like the region is; larger is surer.
    public var score: Double
    /// Extent across the bars of the bar-like blocks themselves, pixels, without the margins.
    public var barsLength: Double
    /// Extent along the bars of the bar-like blocks themselves, pixels, without the margins.
    public var barsHeight: Double

    /// Whether the bar-like blocks come within `distance` pixels of the border of an image of that size
    /// (with `endsOnly`, only the symbol's two ends count, not its bars' tops and bottoms).
    func barsReachBorder(width: Int, height: Int, within distance: Double, endsOnly: Bool = false) -> Bool {
        let radians = angleDegrees * Double.pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        for (along, across) in endsOnly ? [(-1.0, 0.0), (1, 0)] : [(-1.0, -1.0), (-1, 1), (1, -1), (1, 1)] {
            let u = along * barsLength / 2
            let v = across * barsHeight / 2
            let x = centerX + u * cosine - v * sine
            let y = centerY + u * sine + v * cosine
            if x < distance || y < distance || x > Double(width) - distance || y > Double(height) - distance {
                return true
            }
        }
        return false
    }
}

/// Finds bar-code-like regions: areas where the image's gradients are strong and all point the same way.
///
/// Per 8×8 block, the structure tensor (sums of gx², gy², gx·gy) gives the gradient energy and how
/// coherent its direction is. Printed bars give high energy and high coherence; text and photos give
/// energy in every direction, a card's edge too little energy per block. Connected runs of such blocks
/// are candidate symbols; their summed tensor gives the angle to turn them upright, however the card
/// was held — one exact rotation instead of a sweep, and a tight crop that can be taken from the
/// full-resolution photo when the symbol is small.
public enum BarcodeLocator {
    static let blockSize = 8

    /// Up to `limit` candidate regions, most bar-like first.
    public static func locate(in image: GrayImage, limit: Int = 3) -> [BarcodeRegion] {
        let columns = image.width / blockSize
        let rows = image.height / blockSize
        guard columns >= 4, rows >= 2 else { return [] }
        // The sums are of integers (a gradient is at most 255, a block's sum at most 64 × 2 × 255²), exact
        // in Int as in Double, so they are added in Int, a block at a time, and then converted.
        let sums = tensorSums(of: image, columns: columns, rows: rows)
        let xx = sums.map { Double($0.xx) }
        let yy = sums.map { Double($0.yy) }
        let xy = sums.map { Double($0.xy) }
        let energies = (0..<xx.count).map { xx[$0] + yy[$0] }
        var scratch = energies
        let median = scratch.orderStatistic(energies.count / 2)
        // Bars alternate dark and light every few pixels: far above a flat background's energy. On a
        // printed page the median block is text, itself strong; then the strongest blocks (the 98th
        // percentile) set the bar: a label on such a page was never located with 4 × the median alone.
        let high = scratch.orderStatistic(energies.count * 98 / 100)
        let threshold = Swift.max(Swift.min(4 * median, 0.3 * high), Double(blockSize * blockSize) * 40)
        var candidate = [Bool](repeating: false, count: xx.count)
        for index in candidate.indices where energies[index] > threshold {
            let coherence =
                ((xx[index] - yy[index]) * (xx[index] - yy[index]) + 4 * xy[index] * xy[index]).squareRoot()
                / energies[index]
            candidate[index] = coherence > 0.7
        }
        // Each block's orientation as a doubled-angle unit vector, so 0° and 180° agree.
        let orientation = (0..<xx.count).map { index -> (Double, Double) in
            let length = ((xx[index] - yy[index]) * (xx[index] - yy[index]) + 4 * xy[index] * xy[index])
                .squareRoot()
            return length > 0 ? ((xx[index] - yy[index]) / length, 2 * xy[index] / length) : (1, 0)
        }
        // Neighbours join only when their orientations agree within 20°: the bars must not merge with
        // the card's edges and text lines, which touch them at a distance but run the other way.
        let agreement = cos(40 * Double.pi / 180)
        var pieces: [[Int]] = []
        var seen = [Bool](repeating: false, count: candidate.count)
        for start in candidate.indices where candidate[start] && !seen[start] {
            var stack = [start]
            var members: [Int] = []
            seen[start] = true
            while let block = stack.popLast() {
                members.append(block)
                let (bx, by) = (block % columns, block / columns)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (nx, ny) = (bx + dx, by + dy)
                        guard nx >= 0, ny >= 0, nx < columns, ny < rows else { continue }
                        let neighbour = ny * columns + nx
                        let dot =
                            orientation[block].0 * orientation[neighbour].0
                            + orientation[block].1 * orientation[neighbour].1
                        if candidate[neighbour], !seen[neighbour], dot > agreement {
                            seen[neighbour] = true
                            stack.append(neighbour)
                        }
                    }
                }
            }
            guard members.count >= 4, region(of: members, columns: columns, xx: xx, yy: yy, xy: xy) != nil
            else { continue }
            pieces.append(members)
        }
        // A block inside a wide space or bar of a soft symbol can lack the energy of its neighbours, and
        // a column of such blocks cuts the symbol in pieces, none with both its ends (seen on small JPEGs
        // and far 12 MP cards: three pieces of one symbol, none read). Pieces that are each symbol-shaped
        // and lie end to end on one line, a block apart, are one symbol. Lines of text are tall and thin
        // one by one, never symbol-shaped, so a paragraph does not become one.
        var joined = true
        while joined {
            joined = false
            search: for first in pieces.indices {
                for second in pieces.indices where second > first {
                    if continues(pieces[first], pieces[second], columns: columns, xx: xx, yy: yy, xy: xy) {
                        pieces[first] += pieces.remove(at: second)
                        joined = true
                        break search
                    }
                }
            }
        }
        let regions = pieces.compactMap { region(of: $0, columns: columns, xx: xx, yy: yy, xy: xy) }
        return Array(regions.sorted { $0.score > $1.score }.prefix(limit))
    }

    /// Per block, the sums of gx², gy² and gx·gy (central differences) over its pixels, the image's first
    /// and last rows and columns left out. A row's products are made across the whole row first, where the
    /// compiler vectorizes, then added up a block at a time.
    private static func tensorSums(of image: GrayImage, columns: Int, rows: Int) -> [(
        xx: Int, yy: Int, xy: Int
    )] {
        let (width, span) = (image.width, columns * blockSize)
        var sums = [(xx: Int, yy: Int, xy: Int)](repeating: (0, 0, 0), count: columns * rows)
        // gx², gy² and gx·gy of one row, each at most 255² (Int32); the first and last column stay 0.
        var products = [Int32](repeating: 0, count: 3 * span)
        image.pixels.withUnsafeBufferPointer { pixels in
            products.withUnsafeMutableBufferPointer { products in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 1..<rows * blockSize - 1 {
                        let row = y * width
                        for x in 1..<span - 1 {
                            let gx = Int32(pixels[row &+ x &+ 1]) &- Int32(pixels[row &+ x &- 1])
                            let gy = Int32(pixels[row &+ width &+ x]) &- Int32(pixels[row &- width &+ x])
                            products[x] = gx &* gx
                            products[span &+ x] = gy &* gy
                            products[2 &* span &+ x] = gx &* gy
                        }
                        let blockRow = (y / blockSize) * columns
                        for column in 0..<columns {
                            var (xx, yy, xy): (Int32, Int32, Int32) = (0, 0, 0)
                            for x in column * blockSize..<(column + 1) * blockSize {
                                xx &+= products[x]
                                yy &+= products[span &+ x]
                                xy &+= products[2 &* span &+ x]
                            }
                            sums[blockRow + column].xx &+= Int(xx)
                            sums[blockRow + column].yy &+= Int(yy)
                            sums[blockRow + column].xy &+= Int(xy)
                        }
                    }
                }
            }
        }
        return sums
    }

    /// The blocks' summed gradient direction (radians, across the bars) and their centres' extents along
    /// it and across it, in pixels.
    private struct Extent {
        var angle: Double
        var along: ClosedRange<Double>
        var across: ClosedRange<Double>
    }

    private static func extent(
        of members: [Int], columns: Int, xx: [Double], yy: [Double], xy: [Double], angle given: Double? = nil
    ) -> Extent? {
        let angle =
            given
            ?? 0.5
            * atan2(
                2 * members.reduce(0) { $0 + xy[$1] },
                members.reduce(0) { $0 + xx[$1] } - members.reduce(0) { $0 + yy[$1] })
        let (cosine, sine) = (cos(angle), sin(angle))
        let half = Double(blockSize) / 2
        let centers = members.map {
            (Double($0 % columns * blockSize) + half, Double($0 / columns * blockSize) + half)
        }
        let along = centers.map { $0.0 * cosine + $0.1 * sine }
        let across = centers.map { -$0.0 * sine + $0.1 * cosine }
        guard let minAlong = along.min(), let maxAlong = along.max(), let minAcross = across.min(),
            let maxAcross = across.max()
        else { return nil }
        return Extent(angle: angle, along: minAlong...maxAlong, across: minAcross...maxAcross)
    }

    /// Whether `second` continues `first` across the bars: the same direction within 10°, side by side
    /// along it with at most one block missing between them, and overlapping across it by half the shorter.
    private static func continues(
        _ first: [Int], _ second: [Int], columns: Int, xx: [Double], yy: [Double], xy: [Double]
    ) -> Bool {
        guard let one = extent(of: first, columns: columns, xx: xx, yy: yy, xy: xy),
            let other = extent(of: second, columns: columns, xx: xx, yy: yy, xy: xy),
            cos(2 * (one.angle - other.angle)) > cos(20 * Double.pi / 180),
            let seen = extent(of: second, columns: columns, xx: xx, yy: yy, xy: xy, angle: one.angle)
        else { return false }
        let gap = Swift.max(
            seen.along.lowerBound - one.along.upperBound, one.along.lowerBound - seen.along.upperBound)
        let overlap =
            Swift.min(one.across.upperBound, seen.across.upperBound)
            - Swift.max(one.across.lowerBound, seen.across.lowerBound)
        let shorter = Swift.min(
            one.across.upperBound - one.across.lowerBound, seen.across.upperBound - seen.across.lowerBound)
        return gap <= 2 * Double(blockSize) && overlap >= 0.5 * shorter
    }

    private static func region(of members: [Int], columns: Int, xx: [Double], yy: [Double], xy: [Double])
        -> BarcodeRegion?
    {
        guard let extent = extent(of: members, columns: columns, xx: xx, yy: yy, xy: xy) else { return nil }
        let angle = extent.angle
        let (cosine, sine) = (cos(angle), sin(angle))
        let (minAlong, maxAlong) = (extent.along.lowerBound, extent.along.upperBound)
        let (minAcross, maxAcross) = (extent.across.lowerBound, extent.across.upperBound)
        // How bar-like: the region's gradient energy.
        let energy = members.reduce(0) { $0 + xx[$1] } + members.reduce(0) { $0 + yy[$1] }
        let length = maxAlong - minAlong + Double(blockSize)
        let height = maxAcross - minAcross + Double(blockSize)
        // A symbol is longer across its bars than along them; a tall thin region is something else.
        guard length >= 3 * Double(blockSize), length >= 0.8 * height else { return nil }
        let midAlong = (minAlong + maxAlong) / 2
        let midAcross = (minAcross + maxAcross) / 2
        return BarcodeRegion(
            centerX: midAlong * cosine - midAcross * sine, centerY: midAlong * sine + midAcross * cosine,
            angleDegrees: angle * 180 / Double.pi,
            // Margins: the blocks at the ends straddle the quiet zone; keep a fifth more on each side.
            length: length * 1.4 + 4 * Double(blockSize), height: height * 1.2 + 2 * Double(blockSize),
            score: energy,
            barsLength: length, barsHeight: height)
    }
}

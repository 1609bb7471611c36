import Glibc
import Imaging
import Symbologies

/// Whether a Codabar or Interleaved 2 of 5 read (``FootprintPattern``) accounts for the whole symbol it was
/// read from, judged in the very image the decoder was given: any engine's read goes through it, given the
/// text and where its scan lines ended.
///
/// A damaged photo (a JPEG with a few bytes changed shifts the lower part of the picture sideways, as a
/// torn or creased card does) shows a scan line that crosses the tear a valid symbol with characters
/// dropped or repeated, and a few neighbouring lines agree with it: zbar's own agreement between lines,
/// a second stage's, and even zxing-cpp's reading the same torn lines cannot tell. Lines that do not cross
/// the tear show the whole symbol, whose bars and spaces differ from such a read's, and lines that cross it
/// elsewhere drop other characters. So a read stands only when most lines across the symbol's bars carry,
/// between two quiet zones, exactly its pattern of narrow and wide elements (wherever along the line: the
/// part of the picture below a tear is shifted sideways, but whole).
public enum SymbolFootprint {
    /// Whether `text` (Codabar: start and stop letters included), read along scan lines that ended at
    /// `lineEnds` (both ends of the symbol, as zbar reports them; or, with `corners`, the four corners of
    /// zxing-cpp's lines in reading order), accounts for the whole symbol in `image`.
    /// False when there is too little to judge (one end only); true for a symbology it does not judge.
    /// In a `crop` (a part of the photo the cascade cut out) each end's quiet zone must lie inside it:
    /// past a crop's edge is not the card's quiet zone but the photo beyond the cut.
    public static func accountsForWholeSymbol(
        _ symbology: Symbology, text: String, lineEnds: [ImagePoint], corners: Bool = false,
        in image: GrayImage, crop: Bool = false
    ) -> Bool {
        guard FootprintPattern.judges(symbology) else { return true }
        guard let pattern = FootprintPattern(symbology: symbology, text: text) else { return false }
        if crop, !quietZonesInside(pattern, lineEnds: lineEnds, corners: corners, in: image) { return false }
        return measure(pattern, lineEnds: lineEnds, corners: corners, in: image)?.isWhole ?? false
    }

    /// Whether four narrow elements past each end of the read (more than the widest space a cut can end
    /// in) lie inside `image`. A crop around the part of a symbol the locator found can cut the symbol, and
    /// the cut, with the white the footprint sees past it, reads as a valid shorter symbol (an 8-digit
    /// Interleaved 2 of 5 drawn with wide elements 3 times the narrow ones, read as its first 6 digits from
    /// such a crop; ARCHITECTURE §5). A photo's own edges are not judged so: a scan cropped close to the bars
    /// is a whole symbol (zxing's Codabar test image 11.png leaves 2 px, about one narrow bar).
    static func quietZonesInside(
        _ pattern: FootprintPattern, lineEnds: [ImagePoint], corners: Bool, in image: GrayImage
    ) -> Bool {
        guard let ends = symbolEnds(lineEnds, corners: corners) else { return false }
        let reach = 4 / pattern.modules
        let (dx, dy) = (ends.last.x - ends.first.x, ends.last.y - ends.first.y)
        return [(ends.first, -reach), (ends.last, reach)].allSatisfy { end, step in
            let (x, y) = (end.x + step * dx, end.y + step * dy)
            return x >= 0 && y >= 0 && x <= Double(image.width) && y <= Double(image.height)
        }
    }

    /// What the rows across the symbol show.
    struct Measurement {
        /// Rows that cross the symbol's bars.
        var rowsOnSymbol: Int
        /// Of those, rows that carry exactly the read's pattern.
        var rowsAgreeing: Int
        /// Element counts of the rows that do not agree.
        var otherCounts: [Int]
        /// The read's element count.
        var patternCount: Int
        /// The narrow element's width in the strip's pixels.
        var narrow: Double = 0

        /// Rows that do not agree but hold about as many elements as the read or more: the whole symbol
        /// seen past a tear (the torn read dropped characters), not a pen stroke or a smudge across bars.
        var rowsCompeting: Int { otherCounts.filter { $0 >= patternCount - 8 }.count }

        /// Most rows agree; or a third do, or a fifth and at least three, and few others hold a competing
        /// symbol. A pen scribble across a scanned symbol breaks up the rows it crosses (27 of 63 rows
        /// agreed, 4 competed); glare washes out part of the bars in the rows it crosses, which then hold
        /// fewer elements than any whole symbol (generated glare photos: 7 to 9 of 30 to 40 rows agreed,
        /// 0 to 2 competed). Torn reads of damaged photos had 1 to 8 rows of 11 to 61 agreeing and most
        /// others competing; measured as rows are read now, by their own noise (1200 damaged copies of
        /// three photos, seeds 1 to 4 of Benchmarks/damaged.sh, 19 wrong reads), at most 8 agreed and at least
        /// 2.6 times as many competed.
        var isWhole: Bool {
            guard rowsOnSymbol > 0 else { return false }
            if 2 * rowsAgreeing >= rowsOnSymbol { return true }
            guard 2 * rowsCompeting <= rowsAgreeing else { return false }
            return 3 * rowsAgreeing >= rowsOnSymbol || (rowsAgreeing >= 3 && 5 * rowsAgreeing >= rowsOnSymbol)
        }
    }

    static func measure(
        _ pattern: FootprintPattern, lineEnds: [ImagePoint], corners: Bool = false, in image: GrayImage
    ) -> Measurement? {
        guard let ends = symbolEnds(lineEnds, corners: corners) else { return nil }
        let (dx, dy) = (ends.last.x - ends.first.x, ends.last.y - ends.first.y)
        let length = (dx * dx + dy * dy).squareRoot()
        let modules = pattern.modules
        guard length / modules >= 0.7 else { return nil }
        // Sampled so that the strip is at most about 1200 px long, and its narrow elements at least 3 px
        // wide: a row's threshold cannot separate narrow elements of about a pixel (a small scan).
        let scale = Swift.min(Swift.max(1, length / 1200), length / modules / 3)
        let narrow = length / modules / scale
        // The symbol upright (its scan lines are the rows), with room on either side for the quiet zones and
        // for a part of the picture shifted sideways (a torn photo: up to a third of the symbol's length),
        // and up to 0.6 of its length above and below (taller than any linear symbol's bars).
        let inside = length / scale
        let margin = inside / 3 + 12 * narrow
        let width = Int((inside + 2 * margin).rounded(.up))
        let height = Int((1.2 * inside).rounded(.up)) | 1
        let strip = FootprintStrip(
            of: image, centerX: (ends.first.x + ends.last.x) / 2, centerY: (ends.first.y + ends.last.y) / 2,
            angleDegrees: atan2(dy, dx) * 180 / Double.pi, width: width, height: height,
            sourcePixelsPerPixel: scale)
        // zbar's line ends are the symbol's outer edges (measured on a clean render: the first bar's left
        // edge and the last bar's right edge); a narrow element and a half of slack allows for softness.
        let slack = 1.5 * narrow
        let window = Int(margin - slack)..<Int((margin + inside + slack).rounded(.up))
        let step = Swift.max(1, height / 150)
        let middle = height / 2
        // The row across the same bars that a row's noise is measured against: the next row walked.
        func neighbour(of row: Int) -> Int { row + step < height - 1 ? row + step : row - step }
        guard
            let reference = RowReading(
                strip: strip, row: middle, neighbour: neighbour(of: middle), window: window, narrow: narrow)
        else {
            return nil
        }
        // Walk up and down from the middle row while rows still carry bars like the middle one. Each row's
        // symbol is the run of bars it holds between two quiet zones, wherever it lies along the row: a
        // row below a tear carries the whole symbol shifted sideways, and counts as much as one above it.
        var onSymbol = 0
        // The points do not say which end is the start: count the rows that carry the pattern each way.
        let reversed = pattern.reversed
        var agreeing = 0
        var agreeingReversed = 0
        var otherCounts: [Int] = []
        for direction in [-1, 1] {
            var offRows = 0
            var row = direction < 0 ? middle : middle + step
            while row >= 1, row < height - 1, offRows < 2 {
                defer { row += direction * step }
                guard
                    let reading = RowReading(
                        strip: strip, row: row, neighbour: neighbour(of: row), window: window, narrow: narrow),
                    reading.contrast >= 0.5 * reference.contrast,
                    2 * reading.bars >= pattern.elements.count / 2
                else {
                    offRows += 1
                    continue
                }
                offRows = 0
                onSymbol += 1
                let forward = reading.matches(pattern)
                let backward = reading.matches(reversed)
                if forward { agreeing += 1 }
                if backward { agreeingReversed += 1 }
                if !forward, !backward { otherCounts.append(reading.elements.count) }
            }
        }
        return Measurement(
            rowsOnSymbol: onSymbol, rowsAgreeing: Swift.max(agreeing, agreeingReversed),
            otherCounts: otherCounts,
            patternCount: pattern.elements.count, narrow: narrow)
    }

    /// The two ends of the symbol. zxing-cpp gives the corners of the lines that read it, in reading order
    /// (top-left, top-right, bottom-right, bottom-left: `corners`); the ends are the middles of their left
    /// and right sides. zbar reports where each line that read it ended, and lines run both ways, so the
    /// points gather along both ends: two parallel runs of points across the bars. They are split at the
    /// widest gap between them along any direction (in 2° steps), which is the symbol's own direction: the
    /// farthest pair of points, taken before, is a diagonal when the bars are taller than the symbol is
    /// long (a 2-digit Interleaved 2 of 5 drawn 50 modules tall read as turned by 61°, and no row of it
    /// agreed). Nil when they do not reach both ends.
    static func symbolEnds(_ imagePoints: [ImagePoint], corners: Bool = false) -> (first: Point, last: Point)?
    {
        let points = imagePoints.map { Point(x: Double($0.x), y: Double($0.y)) }
        guard points.count >= 2 else { return nil }
        if corners, points.count == 4 {
            let first = Point(x: (points[0].x + points[3].x) / 2, y: (points[0].y + points[3].y) / 2)
            let last = Point(x: (points[1].x + points[2].x) / 2, y: (points[1].y + points[2].y) / 2)
            let (dx, dy) = (last.x - first.x, last.y - first.y)
            return dx * dx + dy * dy >= 256 ? (first, last) : nil
        }
        var widest: (gap: Double, cosine: Double, sine: Double, split: Double) = (-1, 1, 0, 0)
        for step in 0..<90 {
            let angle = Double(step) * 2 * Double.pi / 180
            let (cosine, sine) = (cos(angle), sin(angle))
            let projected = points.map { $0.x * cosine + $0.y * sine }.sorted()
            for (one, next) in zip(projected, projected.dropFirst()) where next - one > widest.gap {
                widest = (next - one, cosine, sine, (one + next) / 2)
            }
        }
        guard widest.gap >= 16 else { return nil }
        var firstSum = (0.0, 0.0, 0.0)
        var lastSum = (0.0, 0.0, 0.0)
        for point in points {
            if point.x * widest.cosine + point.y * widest.sine < widest.split {
                firstSum = (firstSum.0 + point.x, firstSum.1 + point.y, firstSum.2 + 1)
            } else {
                lastSum = (lastSum.0 + point.x, lastSum.1 + point.y, lastSum.2 + 1)
            }
        }
        return (
            Point(x: firstSum.0 / firstSum.2, y: firstSum.1 / firstSum.2),
            Point(x: lastSum.0 / lastSum.2, y: lastSum.1 / lastSum.2)
        )
    }

    /// A point between pixels.
    struct Point {
        var x: Double
        var y: Double
    }
}

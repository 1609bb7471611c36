import Codabar
import Glibc
import Imaging

/// Whether a Codabar read accounts for the whole symbol it was read from, judged in the very image the
/// decoder was given: any engine's read goes through it, given the text and where its scan lines ended.
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
    /// Whether `text` (Codabar, start and stop letters included), read along scan lines that ended at
    /// `lineEnds` (both ends of the symbol, as zbar reports them), accounts for the whole symbol in `image`.
    /// `gently`: the image is the photo as it is, blurred or turned, not stretched, sharpened or cut finer
    /// (``Measurement/isWhole(readGently:)``). False when there is too little to judge (one end only).
    public static func accountsForWholeSymbol(
        text: String, lineEnds: [ImagePoint], in image: GrayImage, gently: Bool = false
    ) -> Bool {
        measure(text: text, lineEnds: lineEnds, in: image)?.isWhole(readGently: gently) ?? false
    }

    /// What the rows across the symbol show.
    struct Measurement {
        /// Rows that cross the symbol's bars.
        var rowsOnSymbol: Int
        /// Of those, rows that carry exactly the read's pattern.
        var rowsAgreeing: Int
        /// Element counts of the rows that neither agree nor hold a piece of the pattern.
        var otherCounts: [Int]
        /// Rows that hold a long piece of the read's pattern, cut short by glare
        /// (``RowReading/matchesPiece(of:)``).
        var rowsPiece: Int = 0
        /// The read's element count.
        var patternCount: Int
        /// The narrow element's width in the strip's pixels.
        var narrow: Double = 0

        /// Rows that do not agree but hold about as many elements as the read or more: the whole symbol
        /// seen past a tear (the torn read dropped characters), not a pen stroke or a smudge across bars.
        var rowsCompeting: Int { otherCounts.filter { $0 >= patternCount - 8 }.count }

        /// Of those, the rows whose element count differs from the read's by whole characters (eight
        /// elements each), or not at all: a tear drops or repeats whole characters. A dark photo's noise
        /// merges or splits single elements, or carries a row on into a speck past the quiet zone, and
        /// leaves it some other count (generated low-light photos: rows of 81 to 91 elements beside a
        /// symbol of 87).
        var rowsCompetingByCharacters: Int {
            otherCounts.filter { $0 >= patternCount - 8 && ($0 - patternCount) % 8 == 0 }.count
        }

        /// Most rows agree; or a third do, and few others hold a symbol about as long (in the photo as it
        /// is: few hold one whole characters apart); or a fifth and at least three do, and few others hold
        /// a symbol about as long; or, under glare, a few agree, most of the rest hold pieces of the same
        /// pattern, and few hold a symbol about as long.
        ///
        /// A pen scribble across a scanned symbol breaks up the rows it crosses (27 of 63 rows agreed, 4
        /// competed). Glare washes out part of the bars in the rows it crosses, and a row then holds a piece
        /// of the symbol up to where the glare begins (generated glare photos: 2 of 28 rows agreed, 24 to
        /// 26 held pieces, 0 or 1 competed). Torn reads of damaged photos (2400 damaged copies of three
        /// photos, seeds 1 to 8 of Benchmarks/damaged.sh, every read's rows traced) had at most 27% of their
        /// rows agreeing where the photo was read as it is (13 of 49, with 11 rows competing by whole
        /// characters); those with pieces and two or more rows agreeing had at least 1.5 times as many
        /// competing. A stretched, sharpened or finer cut reads a torn symbol on fewer rows: up to 30% of
        /// them agreed, and 27% with none competing by whole characters (3 of 11). So there every row about
        /// as long as the read competes.
        func isWhole(readGently: Bool) -> Bool {
            guard rowsOnSymbol > 0 else { return false }
            if 2 * rowsAgreeing >= rowsOnSymbol { return true }
            let competing = readGently ? rowsCompetingByCharacters : rowsCompeting
            if 3 * rowsAgreeing >= rowsOnSymbol, 2 * competing <= rowsAgreeing { return true }
            if rowsAgreeing >= 3, 5 * rowsAgreeing >= rowsOnSymbol, 2 * rowsCompeting <= rowsAgreeing {
                return true
            }
            return rowsAgreeing >= 2 && 2 * rowsCompeting <= rowsAgreeing
                && 2 * (rowsAgreeing + rowsPiece) >= rowsOnSymbol
        }
    }

    static func measure(text: String, lineEnds: [ImagePoint], in image: GrayImage) -> Measurement? {
        guard let symbol = try? CodabarSymbol(normalizing: text), let ends = symbolEnds(lineEnds) else {
            return nil
        }
        let pattern = CodabarLayout.elements(of: symbol)
        let (dx, dy) = (ends.last.x - ends.first.x, ends.last.y - ends.first.y)
        let length = (dx * dx + dy * dy).squareRoot()
        // Narrow elements per symbol, at the middle of the allowed wide:narrow ratios.
        let modules = pattern.reduce(0.0) { $0 + ($1.isWide ? 2.5 : 1) }
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
        let reversed = Array(pattern.reversed())
        var agreeing = 0
        var agreeingReversed = 0
        // The rows that agree neither way: their element counts, and whether each holds a piece of the
        // pattern forward and backward.
        var others: [(count: Int, forward: Bool, backward: Bool)] = []
        for direction in [-1, 1] {
            var offRows = 0
            var row = direction < 0 ? middle : middle + step
            while row >= 1, row < height - 1, offRows < 2 {
                defer { row += direction * step }
                guard
                    let reading = RowReading(
                        strip: strip, row: row, neighbour: neighbour(of: row), window: window, narrow: narrow),
                    reading.contrast >= 0.5 * reference.contrast,
                    2 * reading.bars >= pattern.count / 2
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
                guard !forward, !backward else { continue }
                others.append(
                    (
                        reading.elements.count, reading.matchesPiece(of: pattern),
                        reading.matchesPiece(of: reversed)
                    ))
            }
        }
        let (pieces, piecesReversed) = (others.filter(\.forward).count, others.filter(\.backward).count)
        let isReversed =
            agreeingReversed > agreeing || (agreeingReversed == agreeing && piecesReversed > pieces)
        return Measurement(
            rowsOnSymbol: onSymbol, rowsAgreeing: isReversed ? agreeingReversed : agreeing,
            otherCounts: others.filter { !(isReversed ? $0.backward : $0.forward) }.map(\.count),
            rowsPiece: isReversed ? piecesReversed : pieces, patternCount: pattern.count, narrow: narrow)
    }

    /// The two ends of the symbol: zbar reports where each line that read it ended, and lines run both
    /// ways, so the points gather at both ends. Split them by the pair farthest apart; nil when they do
    /// not reach both ends.
    static func symbolEnds(_ imagePoints: [ImagePoint]) -> (first: Point, last: Point)? {
        let points = imagePoints.map { Point(x: Double($0.x), y: Double($0.y)) }
        guard points.count >= 2 else { return nil }
        var farthest = (points[0], points[1], -1.0)
        for (index, one) in points.enumerated() {
            for other in points[(index + 1)...] {
                let distance = (one.x - other.x) * (one.x - other.x) + (one.y - other.y) * (one.y - other.y)
                if distance > farthest.2 { farthest = (one, other, distance) }
            }
        }
        guard farthest.2 >= 256 else { return nil }
        let (one, other) = (farthest.0, farthest.1)
        var firstSum = (0.0, 0.0, 0.0)
        var lastSum = (0.0, 0.0, 0.0)
        for point in points {
            let toOne = (point.x - one.x) * (point.x - one.x) + (point.y - one.y) * (point.y - one.y)
            let toOther =
                (point.x - other.x) * (point.x - other.x) + (point.y - other.y) * (point.y - other.y)
            if toOne <= toOther {
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

import Codabar
import Imaging

/// One row of the upright strip: the bars and spaces of the symbol it crosses.
struct RowReading {
    /// Widths of the elements of the run of bars that overlaps the read's window most, from its first bar
    /// to its last, bar first. A run ends at a light gap wider than any space of a symbol (a quiet zone).
    var elements: [Double]
    /// The row's contrast inside the window (90th minus 10th percentile).
    var contrast: Double

    /// Bars in the run.
    var bars: Int { (elements.count + 1) / 2 }

    /// A light gap this many narrow widths wide ends a symbol: the widest space of Codabar and ITF is three narrow
    /// widths (ink spread and softness add a little), its quiet zone ten.
    static let quietGap = 5.5

    /// How far, as a part of the row's contrast, the row must turn back to end a bar or a space.
    static let swing = 0.1

    /// How many times the row's noise (its standard deviation) the row must turn back to end a bar or a
    /// space, when that is more than ``swing`` of its contrast.
    static let noiseSwing = 5.0

    /// A light stretch this many narrow widths long, staying lighter than halfway between the row's dark
    /// and light, is a quiet zone even where the row wavers inside it: longer than any light stretch
    /// inside a symbol (a wide space, a narrow bar too soft to darken halfway, a wide space: seven narrow
    /// widths at most).
    static let quietStretch = 8.0

    /// The row `row` of the strip (averaged with the rows above and below it); `neighbour` is another row
    /// across the same bars, a few rows away, from which the row's noise is measured.
    init?(strip: FootprintStrip, row: Int, neighbour: Int, window: Range<Int>, narrow: Double) {
        let width = strip.width
        let profile = strip.profile(row)
        var inside = Array(profile[window.clamped(to: 0..<width)])
        guard inside.count >= 8 else { return nil }
        let low = inside.orderStatistic(inside.count / 10)
        let high = inside.orderStatistic(inside.count * 9 / 10)
        contrast = high - low
        guard contrast > 0 else { return nil }
        // Each bar is a valley of the row and each space a ridge, however soft: a narrow space between two
        // wide bars of a blurred photo keeps only a little of its light, too little for any threshold
        // between dark and light, but the row still turns up and down again there (the threshold read rows
        // of generated soft, far and glare photos 8 to 24 elements short, and refused their true reads).
        // A turn counts when the row goes back by a tenth of its contrast (a twentieth let the sensor noise
        // of low-light photos split bars), or by five times the row's own noise where that is more: a dark
        // photo's rows have little contrast and much noise, which split their bars and broke up their quiet
        // zones (generated low-light photos: rows of 95 to 150 elements for a symbol of 87). The noise is
        // measured against a row across the same bars (bars run down the strip, so the difference of the two
        // is noise): the median absolute deviation of the difference, a robust standard deviation.
        let noise = Self.noise(of: profile, against: strip.profile(neighbour))
        let extrema = Self.extrema(
            of: profile, swing: Swift.max(Self.swing * contrast, Self.noiseSwing * noise))
        guard extrema.count >= 3 else { return nil }
        // Each element spans from the crossing of the level halfway to the extremum before it to that
        // halfway to the one after it.
        var crossings: [Double] = []
        for (one, other) in zip(extrema, extrema.dropFirst()) {
            let level = (one.value + other.value) / 2
            var crossing = Double(other.x)
            for x in one.x..<other.x where (profile[x] - level) * (profile[x + 1] - level) <= 0 {
                let step = profile[x] - profile[x + 1]
                crossing = Double(x) + (step == 0 ? 0 : (profile[x] - level) / step)
                break
            }
            crossings.append(crossing)
        }
        let bounds = [0] + crossings + [Double(width)]
        let runs = extrema.indices.map { index in
            (isDark: extrema[index].isDark, start: bounds[index], length: bounds[index + 1] - bounds[index])
        }
        // Groups of runs split at quiet zones: a light run wider than any space, or a long light stretch
        // with a single shallow dip in it, which is no bar (the halo of a sharpened quiet zone, which dips by
        // more than a tenth of a saturated row's contrast and joined the symbol to whatever lay beyond it:
        // generated defocus photos' sharpened cuts had rows 2 to 8 elements longer than the symbol). Glare
        // over bars also leaves a long light stretch, but with the washed-out bars' several dips in it: those
        // stay bars (the rows then hold fewer elements than the symbol, and neither agree nor compete).
        let gap = Self.quietGap * narrow
        var isQuiet = [Bool](repeating: false, count: extrema.count)
        for stretch in Self.lightStretches(
            of: profile, above: (low + high) / 2, longerThan: Self.quietStretch * narrow)
        {
            let dips = extrema.indices.filter { extrema[$0].isDark && stretch.contains(extrema[$0].x) }
            if dips.count == 1 { isQuiet[dips[0]] = true }
        }
        var best: (overlap: Double, runs: ArraySlice<(isDark: Bool, start: Double, length: Double)>)?
        var first = 0
        while first < runs.count {
            guard runs[first].isDark, !isQuiet[first] else {
                first += 1
                continue
            }
            var last = first
            var next = first + 1
            while next + 1 < runs.count, !runs[next].isDark, runs[next].length < gap, !isQuiet[next + 1] {
                last = next + 1
                next += 2
            }
            let (left, right) = (runs[first].start, runs[last].start + runs[last].length)
            let overlap =
                Swift.min(right, Double(window.upperBound)) - Swift.max(left, Double(window.lowerBound))
            if overlap > (best?.overlap ?? 0) { best = (overlap, runs[first...last]) }
            first = last + 1
        }
        guard let best else { return nil }
        elements = best.runs.map(\.length)
    }

    /// The noise of a row's profile (a standard deviation), from its difference with another row across the
    /// same bars: the median absolute deviation of the difference, scaled to a standard deviation (1.4826)
    /// and divided by the square root of 2 (the difference holds the noise of both rows). Robust: the few
    /// columns where the two rows differ in what they show (an edge not quite upright, a tear) do not count.
    static func noise(of profile: [Double], against other: [Double]) -> Double {
        var differences = zip(profile, other).map { $0 - $1 }
        guard !differences.isEmpty else { return 0 }
        let median = differences.orderStatistic(differences.count / 2)
        var deviations = differences.map { abs($0 - median) }
        return 1.4826 * deviations.orderStatistic(deviations.count / 2) / 2.0.squareRoot()
    }

    /// The stretches of the row lighter than `level` throughout and at least `length` long.
    static func lightStretches(of profile: [Double], above level: Double, longerThan length: Double)
        -> [Range<Int>]
    {
        var stretches: [Range<Int>] = []
        var x = 0
        while x < profile.count {
            guard profile[x] > level else {
                x += 1
                continue
            }
            let start = x
            while x < profile.count, profile[x] > level { x += 1 }
            if Double(x - start) >= length { stretches.append(start..<x) }
        }
        return stretches
    }

    /// The row's turning points, alternately light and dark: a turn counts once the row has gone back
    /// from it by `swing`.
    static func extrema(of profile: [Double], swing: Double) -> [(x: Int, value: Double, isDark: Bool)] {
        guard var lowest = profile.first.map({ (x: 0, value: $0) }) else { return [] }
        var highest = lowest
        var found: [(x: Int, value: Double, isDark: Bool)] = []
        // Before the first turn both candidates are followed; after it, the one the row is heading for.
        var rising: Bool?
        for (x, value) in profile.enumerated().dropFirst() {
            if value > highest.value { highest = (x, value) }
            if value < lowest.value { lowest = (x, value) }
            switch rising {
            case nil:
                guard highest.value - lowest.value >= swing else { continue }
                if highest.x < lowest.x {
                    found.append((highest.x, highest.value, false))
                    rising = false
                    highest = (x, value)
                } else {
                    found.append((lowest.x, lowest.value, true))
                    rising = true
                    lowest = (x, value)
                }
            case true?:
                if highest.value - value >= swing {
                    found.append((highest.x, highest.value, false))
                    rising = false
                    lowest = (x, value)
                    highest = (x, value)
                }
            case false?:
                if value - lowest.value >= swing {
                    found.append((lowest.x, lowest.value, true))
                    rising = true
                    lowest = (x, value)
                    highest = (x, value)
                }
            }
        }
        // The last turn the row was heading for, where it ends.
        switch rising {
        case true?: found.append((highest.x, highest.value, false))
        case false?: found.append((lowest.x, lowest.value, true))
        case nil: break
        }
        return found
    }

    /// Whether the row carries exactly the pattern: as many elements, and in each of its groups (a
    /// character) each wide bar wider than its narrow bars and each wide space wider than its narrow spaces
    /// (compared within a group, so that perspective and ink spread along the symbol do not matter).
    func matches(_ pattern: FootprintPattern) -> Bool {
        guard elements.count == pattern.elements.count else { return false }
        for group in pattern.groups {
            for isBar in [true, false] {
                let kind = group.filter { pattern.elements[$0].isBar == isBar }
                let wide = kind.filter { pattern.elements[$0].isWide }.map { elements[$0] }
                let narrow = kind.filter { !pattern.elements[$0].isWide }.map { elements[$0] }
                guard let narrowest = wide.min(), let widest = narrow.max() else { continue }
                if narrowest <= widest { return false }
            }
        }
        return true
    }
}

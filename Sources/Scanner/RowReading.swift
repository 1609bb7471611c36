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

    /// A light gap this many narrow widths wide ends a symbol: Codabar's widest space is three narrow
    /// widths (ink spread and softness add a little), its quiet zone ten.
    static let quietGap = 5.5

    /// How far, as a part of the row's contrast, the row must turn back to end a bar or a space.
    static let swing = 0.1

    init?(strip: GrayImage, row: Int, window: Range<Int>, narrow: Double) {
        let width = strip.width
        let profile = (0..<width).map { x in
            (Double(strip[x, row - 1]) + Double(strip[x, row]) + Double(strip[x, row + 1])) / 3
        }
        let inside = profile[window.clamped(to: 0..<width)].sorted()
        guard inside.count >= 8 else { return nil }
        let low = inside[inside.count / 10]
        let high = inside[inside.count * 9 / 10]
        contrast = high - low
        guard contrast > 0 else { return nil }
        // Each bar is a valley of the row and each space a ridge, however soft: a narrow space between two
        // wide bars of a blurred photo keeps only a little of its light, too little for any threshold
        // between dark and light, but the row still turns up and down again there (the threshold read rows
        // of generated soft, far and glare photos 8 to 24 elements short, and refused their true reads).
        // A turn counts when the row goes back by a tenth of its contrast: a twentieth let the sensor noise
        // of low-light photos split bars. Extra elements only refuse a read, never let a torn one through.
        let extrema = Self.extrema(of: profile, swing: Self.swing * contrast)
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
        // Groups of runs split at quiet zones.
        let gap = Self.quietGap * narrow
        var best: (overlap: Double, runs: ArraySlice<(isDark: Bool, start: Double, length: Double)>)?
        var first = 0
        while first < runs.count {
            guard runs[first].isDark else {
                first += 1
                continue
            }
            var last = first
            var next = first + 1
            while next + 1 < runs.count, !runs[next].isDark, runs[next].length < gap {
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

    /// Whether the row carries exactly the pattern: as many elements, and in each character each wide bar
    /// wider than its narrow bars and each wide space wider than its narrow spaces (compared within a
    /// character, so that perspective and ink spread along the symbol do not matter).
    func matches(_ pattern: [CodabarElement]) -> Bool {
        guard elements.count == pattern.count else { return false }
        // Eight elements per character: seven, then the narrow space between characters.
        for first in stride(from: 0, to: pattern.count, by: 8) {
            let character = first..<Swift.min(pattern.count, first + 7)
            for isBar in [true, false] {
                let kind = character.filter { pattern[$0].isBar == isBar }
                let wide = kind.filter { pattern[$0].isWide }.map { elements[$0] }
                let narrow = kind.filter { !pattern[$0].isWide }.map { elements[$0] }
                guard let narrowest = wide.min(), let widest = narrow.max() else { continue }
                if narrowest <= widest { return false }
            }
        }
        return true
    }
}

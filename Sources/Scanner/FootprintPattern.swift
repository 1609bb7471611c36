import Codabar
import Symbologies

/// The bars and spaces, wide or narrow, that a linear read's text must show across the symbol in the image,
/// for the symbologies whose read ``SymbolFootprint`` judges: those without a check character a reader
/// verifies, where a scan line across a tear can read a shorter valid text (Codabar; Interleaved 2 of 5,
/// whose start and stop are a few narrow elements that turn up inside any symbol).
///
/// Elements are compared within their group (a Codabar character; an ITF start, pair of digits or stop):
/// each wide bar wider than the narrow bars of its group, each wide space wider than its narrow spaces, so
/// that perspective and ink spread along the symbol do not matter.
struct FootprintPattern: Equatable {
    /// The symbol's elements from its first bar to its last, bar first.
    var elements: [CodabarElement]
    /// The groups, as ranges of ``elements``.
    var groups: [Range<Int>]

    /// Whether the footprint judges reads of `symbology` (``init(symbology:text:)`` gives their patterns).
    static func judges(_ symbology: Symbology) -> Bool { symbology == .codabar || symbology == .itf }

    /// The pattern of `text` (as read) in `symbology`; nil for a symbology the footprint does not judge
    /// or a text that is not one of its symbols.
    init?(symbology: Symbology, text: String) {
        switch symbology {
        case .codabar:
            guard let symbol = try? CodabarSymbol(normalizing: text) else { return nil }
            let elements = CodabarLayout.elements(of: symbol)
            self.elements = elements
            // Eight elements per character: seven, then the narrow space between characters.
            groups = stride(from: 0, to: elements.count, by: 8).map { $0..<Swift.min(elements.count, $0 + 7) }
        case .itf:
            let digits = text.compactMap(\.wholeNumberValue)
            guard digits.count == text.count, !digits.isEmpty, digits.count.isMultiple(of: 2) else {
                return nil
            }
            (elements, groups) = Self.interleaved2of5(digits)
        default:
            return nil
        }
    }

    private init(elements: [CodabarElement], groups: [Range<Int>]) {
        self.elements = elements
        self.groups = groups
    }

    /// The same symbol read from its other end.
    var reversed: FootprintPattern {
        let count = elements.count
        return FootprintPattern(
            elements: elements.reversed(),
            groups: groups.reversed().map { (count - $0.upperBound)..<(count - $0.lowerBound) })
    }

    /// Narrow widths across the symbol, at the middle of the wide:narrow ratios both symbologies allow
    /// (2 to 3).
    var modules: Double { elements.reduce(0.0) { $0 + ($1.isWide ? 2.5 : 1) } }

    /// Interleaved 2 of 5 (ISO/IEC 16390 §4.2): a start of four narrow elements (bar, space, bar, space),
    /// each pair of digits as five bars (the first digit's widths) interleaved with five spaces (the
    /// second's), two of each five wide, and a stop of a wide bar, a narrow space and a narrow bar.
    static func interleaved2of5(_ digits: [Int]) -> (elements: [CodabarElement], groups: [Range<Int>]) {
        // Which of a digit's five elements are wide.
        let wide: [[Bool]] = [
            [false, false, true, true, false], [true, false, false, false, true],
            [false, true, false, false, true], [true, true, false, false, false],
            [false, false, true, false, true], [true, false, true, false, false],
            [false, true, true, false, false], [false, false, false, true, true],
            [true, false, false, true, false], [false, true, false, true, false],
        ]
        var elements = (0..<4).map { CodabarElement(isBar: $0.isMultiple(of: 2), isWide: false) }
        var groups = [0..<4]
        for pair in stride(from: 0, to: digits.count, by: 2) {
            let start = elements.count
            for position in 0..<5 {
                elements.append(CodabarElement(isBar: true, isWide: wide[digits[pair]][position]))
                elements.append(CodabarElement(isBar: false, isWide: wide[digits[pair + 1]][position]))
            }
            groups.append(start..<elements.count)
        }
        let stop = elements.count
        elements += [
            CodabarElement(isBar: true, isWide: true), CodabarElement(isBar: false, isWide: false),
            CodabarElement(isBar: true, isWide: false),
        ]
        groups.append(stop..<elements.count)
        return (elements, groups)
    }
}

/// One bar or space of a Codabar symbol.
public struct CodabarElement: Equatable, Sendable {
    /// A bar (dark) or a space (light).
    public var isBar: Bool
    /// Wide or narrow.
    public var isWide: Bool

    /// An element of the given colour and width class.
    public init(isBar: Bool, isWide: Bool) {
        self.isBar = isBar
        self.isWide = isWide
    }
}

/// How a symbol is laid out as bars and spaces: the wide:narrow ratio and the quiet zone.
public struct CodabarLayout: Equatable, Sendable {
    /// Wide elements are this many narrow widths; 2.0–3.0 as the specification allows.
    public let ratio: Double

    /// Light margin on each side, in narrow widths. zbar refuses a symbol whose margin is under half a
    /// character; ten narrow widths is the specification's minimum.
    public static let quietZoneNarrowWidths = 10

    /// 3:1 reads where 2:1 does not at an effective narrow bar of 1.0–1.5 px (ARCHITECTURE §4, measured).
    public static let defaultRatio = 3.0

    /// The ratios the specification allows.
    public static let allowedRatios: ClosedRange<Double> = 2.0...3.0

    /// A layout; throws when the ratio is outside 2.0–3.0.
    public init(ratio: Double = CodabarLayout.defaultRatio) throws(CodabarError) {
        guard Self.allowedRatios.contains(ratio) else { throw .ratioOutOfRange(ratio) }
        self.ratio = ratio
    }

    /// The symbol's elements without quiet zones: seven per character, and a narrow space between characters.
    public static func elements(of symbol: CodabarSymbol) -> [CodabarElement] {
        var elements: [CodabarElement] = []
        elements.reserveCapacity(symbol.characters.count * 8)
        for (index, character) in symbol.characters.enumerated() {
            if index > 0 { elements.append(CodabarElement(isBar: false, isWide: false)) }
            for (position, isWide) in character.widePattern.enumerated() {
                elements.append(CodabarElement(isBar: position % 2 == 0, isWide: isWide))
            }
        }
        return elements
    }

    /// Element widths in narrow units, starting and ending with the quiet zone (a space).
    ///
    /// Even indices are spaces, odd indices bars; this is what vector output draws.
    public func elementWidths(of symbol: CodabarSymbol) -> [Double] {
        let quiet = Double(Self.quietZoneNarrowWidths)
        return [quiet] + Self.elements(of: symbol).map { $0.isWide ? ratio : 1 } + [quiet]
    }

    /// Pixels (or modules) wide of a narrow and a wide element when a narrow element is `narrowWidth` wide.
    ///
    /// The wide width is rounded to whole pixels, so a fractional ratio is honoured only as far as
    /// the narrow width allows (2.5 at 1 px per narrow element gives 3 px, at 2 px gives 5 px).
    public func wideWidth(narrowWidth: Int) -> Int {
        max(narrowWidth + 1, Int((ratio * Double(narrowWidth)).rounded()))
    }

    /// One row of the symbol, `true` for dark, with `narrowWidth` pixels per narrow element.
    public func row(of symbol: CodabarSymbol, narrowWidth: Int, includingQuietZones: Bool = true) -> [Bool] {
        let wide = wideWidth(narrowWidth: narrowWidth)
        let quiet = includingQuietZones ? Self.quietZoneNarrowWidths * narrowWidth : 0
        var row = [Bool](repeating: false, count: quiet)
        for element in Self.elements(of: symbol) {
            row.append(contentsOf: repeatElement(element.isBar, count: element.isWide ? wide : narrowWidth))
        }
        row.append(contentsOf: repeatElement(false, count: quiet))
        return row
    }
}

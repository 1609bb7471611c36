import Codabar
import Imaging

/// How a Codabar symbol is drawn into an image: bar widths, height, ratio and the optional text line.
public struct BarcodeStyle: Sendable, Equatable {
    /// Pixels per narrow element (the X dimension); also the size of one font pixel.
    public var narrowBarWidth: Int
    /// Bar height in narrow widths, as zint counts it.
    public var barHeight: Int
    /// Whether the human-readable text is printed under the bars.
    public var showsText: Bool
    /// Wide:narrow ratio and quiet zones.
    public var layout: CodabarLayout

    /// Accepted pixels per narrow element: 1 (the smallest a reader can resolve) to 32.
    public static let narrowBarWidths: ClosedRange<Int> = 1...32
    /// Accepted bar heights in narrow widths.
    public static let barHeights: ClosedRange<Int> = 5...1000

    /// A style; the defaults give a 310×100 px VT ID, comfortable on a phone screen.
    ///
    /// Throws when a value is out of range, or when 1 px narrow bars would get 2 px wide ones: measured,
    /// libzbar read none of 27 such symbols (with 2 to 4 px narrow bars it read all; the specification
    /// asks for a ratio above 2.2 at small X), so a ratio under 2.5 needs narrow bars of at least 2 px.
    public init(
        narrowBarWidth: Int = 2, barHeight: Int = 50, showsText: Bool = false,
        layout: CodabarLayout = CodabarLayout.standard
    ) throws(SymbolError) {
        guard Self.narrowBarWidths.contains(narrowBarWidth) else {
            throw .outOfRange(name: "scale", value: narrowBarWidth, allowed: Self.narrowBarWidths)
        }
        guard Self.barHeights.contains(barHeight) else {
            throw .outOfRange(name: "height", value: barHeight, allowed: Self.barHeights)
        }
        guard layout.wideWidth(narrowWidth: narrowBarWidth) >= 3 else {
            throw .ratioTooSmallForNarrowBars(ratio: layout.ratio)
        }
        self.narrowBarWidth = narrowBarWidth
        self.barHeight = barHeight
        self.showsText = showsText
        self.layout = layout
    }

    /// Pixel height of the bars.
    var barPixels: Int { barHeight * narrowBarWidth }
    /// Space between the bars and the text, and under the text, in pixels.
    var textMargin: Int { 2 * narrowBarWidth }
    /// Pixel height of the text band (zero without text).
    var textBandPixels: Int { showsText ? textMargin * 2 + BitmapFont.glyphHeight * narrowBarWidth : 0 }
}

extension CodabarLayout {
    /// The default layout: ratio 3.0.
    public static let standard: CodabarLayout = {
        do { return try CodabarLayout() } catch { preconditionFailure("3.0 is in range") }
    }()
}

import Symbologies

/// One barcode found in an image, as the decoder reported it (start/stop letters included for Codabar).
public struct DecodedSymbol: Sendable, Hashable {
    /// What kind of barcode (the one symbology type of gymcard: Symbologies' ``Symbology``).
    public var symbology: Symbology
    /// The decoded text, unnormalized.
    public var text: String
    /// zbar's quality score: how many scan lines agreed on this symbol (higher is surer).
    public var quality: Int
    /// Where the scan lines that read it ended, in the pixels of the image the decoder was given: zbar
    /// reports one point per line, at the symbol's far end in the line's direction (lines run both ways,
    /// so the points lie along both ends of a linear symbol); zxing-cpp the four corners of its lines.
    /// Empty when the decoder gave none.
    public var lineEnds: [ImagePoint]
    /// Set when a 2D symbol's bytes are no text in the character set it names (``text`` is then empty):
    /// such a read is never an ID.
    public var textProblem: SymbolTextProblem?

    /// A decoded symbol.
    public init(
        symbology: Symbology, text: String, quality: Int, lineEnds: [ImagePoint] = [],
        textProblem: SymbolTextProblem? = nil
    ) {
        self.symbology = symbology
        self.text = text
        self.quality = quality
        self.lineEnds = lineEnds
        self.textProblem = textProblem
    }
}

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
    /// Set when the symbol is one of several that hold one message between them (Structured Append): its
    /// text is a part of that message, never an ID.
    public var sequencePart: SequencePart?

    /// A decoded symbol.
    public init(
        symbology: Symbology, text: String, quality: Int, lineEnds: [ImagePoint] = [],
        textProblem: SymbolTextProblem? = nil, sequencePart: SequencePart? = nil
    ) {
        self.symbology = symbology
        self.text = text
        self.quality = quality
        self.lineEnds = lineEnds
        self.textProblem = textProblem
        self.sequencePart = sequencePart
    }
}

/// Which of the symbols of a Structured Append message one is.
public struct SequencePart: Sendable, Hashable {
    /// Its place, from 1.
    public var number: Int
    /// How many symbols hold the message.
    public var count: Int

    /// A part.
    public init(number: Int, count: Int) {
        self.number = number
        self.count = count
    }
}

import Symbologies

/// One barcode found in an image, as the decoder reported it (start/stop letters included for Codabar).
public struct DecodedSymbol: Sendable, Hashable {
    /// What kind of barcode (the one symbology type of gymcard: Symbologies' ``Symbology``).
    public var symbology: Symbology
    /// The decoded text, unnormalized.
    public var text: String
    /// zbar's quality score: how many scan lines agreed on this symbol (higher is surer).
    public var quality: Int

    /// A decoded symbol.
    public init(symbology: Symbology, text: String, quality: Int) {
        self.symbology = symbology
        self.text = text
        self.quality = quality
    }
}

/// The barcode kinds gymcard reads: the member card's Codabar, and the companion QR it renders itself.
public enum Symbology: String, Sendable, Codable, Hashable {
    /// Codabar (NW-7), the member card's symbology.
    case codabar
    /// QR Code, gymcard's companion symbol.
    case qrCode = "qr"
}

/// One barcode found in an image, as the decoder reported it (start/stop letters included for Codabar).
public struct DecodedSymbol: Sendable, Hashable {
    /// What kind of barcode.
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

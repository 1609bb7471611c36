import Codabar

extension BarcodeContent {
    /// The card a decoder's read stands for, or `nil` when the barcode is no card's.
    ///
    /// The text is kept exactly as read: a read whose normalized form differs from it (a Codabar read
    /// without its start/stop letters, an EAN-13 whose check digit does not hold, a text with control
    /// characters) is no card. Per symbology:
    /// - A linear symbol (Codabar, Code 39, Code 93, Code 128, ITF, EAN/UPC) is the card with that text: a
    ///   Code 39 check character is kept as read, since a card without one reads the same way.
    /// - A QR code holding a Codabar text with its start/stop letters (gymcard's companion QR) or nine digits
    ///   (a Virginia Tech ID) is that Codabar card, as gymcard has always read it.
    /// - Any other QR, PDF417, Data Matrix or Aztec text is a card in that symbology (app memberships show
    ///   their member code as a QR code) when it is one line of text and no web address or other URI (a
    ///   gym's poster, the back of a card, a Wi-Fi or contact QR code).
    public init?(read symbology: Symbology, text: String) {
        if symbology.isTwoDimensional {
            if symbology == .qr, let codabar = Self.companionCodabar(text) {
                self = codabar
                return
            }
            guard !Self.isAddress(text), !text.contains(where: { $0 == "\n" || $0 == "\r" }) else {
                return nil
            }
        }
        guard let content = try? BarcodeContent(symbology: symbology, normalizing: text), content.text == text
        else { return nil }
        self = content
    }

    /// The ID as people read it: `9051-23456` for a Virginia Tech ID, otherwise the text.
    public var displayText: String {
        guard symbology == .codabar, let symbol = try? CodabarSymbol(normalizing: text) else { return text }
        return symbol.displayText
    }

    /// The Codabar card a QR text stands for: a whole Codabar text (start/stop letters included) or a
    /// Virginia Tech ID's nine digits.
    private static func companionCodabar(_ text: String) -> BarcodeContent? {
        guard let symbol = try? CodabarSymbol(normalizing: text) else { return nil }
        guard symbol.text == text || (symbol.isVirginiaTechID && text.count == 9) else { return nil }
        return try? BarcodeContent(symbology: .codabar, normalizing: symbol.text)
    }

    /// Whether `text` is a web address (`https://…`, `www.…`) or begins with a URI scheme of two letters or
    /// more and a colon (`mailto:`, `WIFI:`, `BEGIN:VCARD`, `geo:`).
    static func isAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.hasPrefix("www.") { return true }
        guard let colon = lowered.firstIndex(of: ":") else { return false }
        let scheme = lowered[..<colon]
        return scheme.count >= 2
            && scheme.allSatisfy { ($0.isASCII && $0.isLetter) || $0 == "+" || $0 == "-" || $0 == "." }
            && scheme.first?.isLetter == true
    }
}

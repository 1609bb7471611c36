import Codabar

extension BarcodeContent {
    /// The card a decoder's read stands for, or `nil` when the barcode is no card's.
    ///
    /// The card is what the barcode is: its symbology as read, its text exactly as read. A read whose
    /// normalized form differs from it (a Codabar read without its start/stop letters, an EAN-13 whose
    /// check digit does not hold, a text with control characters) is no card. A QR code holding nine digits
    /// or a Codabar text (gymcard's companion QR) is a QR card like any other: taking it for the Codabar
    /// card it may stand for is the person's choice (`set --symbology codabar`), never the reader's.
    ///
    /// A QR, PDF417, Data Matrix or Aztec symbol holding a web address or another URI of a scheme phones
    /// act on (``isAddress(_:)``: `https:`, `mailto:`, `WIFI:`, `BEGIN:VCARD` …) is what a gym's poster or a
    /// card's back shows, not a member ID; any other text is the card's, colons included
    /// (`GYM:FITNESS-PLUS:000417`).
    public init?(read symbology: Symbology, text: String) {
        if symbology.isTwoDimensional, Self.isAddress(text) { return nil }
        guard let content = try? BarcodeContent(symbology: symbology, normalizing: text), content.text == text
        else { return nil }
        self = content
    }

    /// The Codabar card a 2D symbol's text may stand for: a whole Codabar text with its start/stop letters
    /// (gymcard's companion QR code) or a Virginia Tech ID's nine digits. `nil` for any other text, and
    /// for a linear symbol. Taking it is the person's choice (`scan --save` asks on a terminal).
    public var codabarReading: BarcodeContent? {
        guard symbology.isTwoDimensional, let symbol = try? CodabarSymbol(normalizing: text),
            symbol.text == text || (symbol.isVirginiaTechID && text.count == 9)
        else { return nil }
        return try? BarcodeContent(symbology: .codabar, normalizing: symbol.text)
    }

    /// The ID as people read it: `9051-23456` for a Virginia Tech ID, otherwise the text.
    public var displayText: String {
        guard symbology == .codabar, let symbol = try? CodabarSymbol(normalizing: text) else { return text }
        return symbol.displayText
    }

    /// Whether `text` is a web address (`www.…`) or a URI of a scheme a phone's camera acts on: what a
    /// poster, a receipt or a card's back carries, not a member ID. The schemes are those the common QR
    /// readers act on (ZXing's `ResultParser`s: URI, e-mail, SMS, telephone, geo, Wi-Fi, vCard, MeCard,
    /// vEvent, one-time passwords, app stores); a text of another form is a card's, whatever its colons.
    public static func isAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.hasPrefix("www.") || lowered.hasPrefix("begin:vcard") || lowered.hasPrefix("begin:vevent")
        {
            return true
        }
        guard let colon = lowered.firstIndex(of: ":") else { return false }
        return addressSchemes.contains(String(lowered[..<colon]))
    }

    /// The URI schemes ``isAddress(_:)`` knows, lower-cased.
    static let addressSchemes: Set<String> = [
        "http", "https", "ftp", "mailto", "matmsg", "tel", "sms", "smsto", "mms", "mmsto", "geo", "wifi",
        "mecard", "bizcard", "otpauth", "market", "itms-apps", "bitcoin", "upi", "spotify",
    ]
}

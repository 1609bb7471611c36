import Testing

@testable import Symbologies

/// What a decoder's read is as a card: the exact text in its symbology, or no card at all.
@Suite struct CardReadTests {
    @Test(
        "a read is a card with its exact text, or none",
        arguments: [
            (Symbology.codabar, "A905123456B", Symbology.codabar, "A905123456B"),
            (.code39, "GYM-0042X", .code39, "GYM-0042X"),
            (.code128, "GYM0042a/7 x", .code128, "GYM0042a/7 x"),
            (.ean13, "4006381333931", .ean13, "4006381333931"),
            (.upce, "01234565", .upce, "01234565"),
            // gymcard's companion QR and a VT ID's nine digits are the Codabar card, as before.
            (.qr, "A905123456B", .codabar, "A905123456B"),
            (.qr, "905123456", .codabar, "A905123456B"),
            // Any other one-line QR text is a QR card, kept exactly.
            (.qr, "12345", .qr, "12345"),
            (.qr, "MEMBER-12345", .qr, "MEMBER-12345"),
            (.aztec, "M:12345", .aztec, "M:12345"),
        ])
    func card(read: Symbology, text: String, symbology: Symbology, exact: String) throws {
        let content = try #require(BarcodeContent(read: read, text: text))
        #expect(content.symbology == symbology)
        #expect(content.text == exact)
    }

    @Test(
        "web addresses, other URIs, several lines and texts a normalization would change are no card",
        arguments: [
            (Symbology.qr, "https://recsports.vt.edu"), (.qr, "www.example.com"),
            (.qr, "mailto:desk@gym.example"),
            (.qr, "WIFI:S:gym;T:WPA;P:secret;;"), (.qr, "BEGIN:VCARD\nEND:VCARD"),
            (.qr, "line one\nline two"),
            (.pdf417, "http://example.com"), (.codabar, "905123456"), (.ean13, "4006381333932"),
            (.code128, "tab\there"), (.code39, "gym-0042"), (.qr, " padded "),
        ])
    func noCard(read: Symbology, text: String) {
        #expect(BarcodeContent(read: read, text: text) == nil)
    }
}

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
            // A card is what its barcode is: a QR code holding a Codabar ID or nine digits is a QR card.
            (.qr, "A905123456B", .qr, "A905123456B"),
            (.qr, "905123456", .qr, "905123456"),
            // Any other one-line QR text is a QR card, kept exactly: colons too, when no URI scheme.
            (.qr, "12345", .qr, "12345"),
            (.qr, "MEMBER-12345", .qr, "MEMBER-12345"),
            (.qr, "GYM:FITNESS-PLUS:000417", .qr, "GYM:FITNESS-PLUS:000417"),
            (.aztec, "M:12345", .aztec, "M:12345"),
            (.datamatrix, "ID:ÄÖÜ-42", .datamatrix, "ID:ÄÖÜ-42"),
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
            (.qr, "WIFI:S:gym;T:WPA;P:secret;;"), (.qr, "BEGIN:VCARD\nEND:VCARD"), (.qr, "tel:+15405551234"),
            (.aztec, "geo:37.2,-80.4"), (.datamatrix, "HTTPS://GYM.EXAMPLE/M"), (.qr, "otpauth://totp/x"),
            (.qr, "line one\nline two"),
            (.pdf417, "http://example.com"), (.codabar, "905123456"), (.ean13, "4006381333932"),
            (.code128, "tab\there"), (.code39, "gym-0042"), (.qr, " padded "),
        ])
    func noCard(read: Symbology, text: String) {
        #expect(BarcodeContent(read: read, text: text) == nil)
    }

    @Test(
        "the Codabar card a 2D code may stand for: a whole Codabar text or nine digits, never chosen by itself",
        arguments: [
            ("A905123456B", "A905123456B"), ("905123456", "A905123456B"), ("C12-34D", "C12-34D"),
            ("9051234567", nil), ("12345", nil), ("A12", nil), ("GYM-0042", nil),
        ] as [(String, String?)])
    func codabarReading(text: String, codabar: String?) throws {
        let read = try #require(BarcodeContent(read: .qr, text: text))
        #expect(read.symbology == .qr)
        #expect(read.codabarReading?.text == codabar)
        #expect(read.codabarReading.map { $0.symbology == .codabar } ?? true)
    }
}

import Catima
import Symbologies
import Testing

@Suite("Catima share links")
struct CatimaShareLinkTests {
    @Test("the link of a Virginia Tech card, encoded twice as Catima writes it")
    func hokieLink() throws {
        let card = CatimaCard(
            exporting: try BarcodeContent(symbology: .codabar, normalizing: "123456789"), label: nil)
        #expect(
            CatimaShareLink.link(for: card)
                == "https://catima.app/share#store%3DHokie%2BPassport%26note%3D%26balance%3D0"
                + "%26cardid%3DA123456789B%26barcodetype%3DCODABAR%26barcodeencoding%3D%26headercolor%3D-7987391"
        )
    }

    @Test(
        "the example links of Catima's document decode to its card", .enabled(if: CatimaFixtures.isAvailable))
    func documentExamples() throws {
        let document = try CatimaFixtures.text("CARD_SHARING_URL_FORMAT.md")
        let links = document.split(separator: "\n").filter { $0.hasPrefix("https://catima.app/share") }
        try #require(links.count == 2)
        for link in links {
            let card = try CatimaShareLink.card(from: String(link))
            #expect(card.store == "Grocery Store" && card.note == "Quite necessary" && card.cardID == "dhd")
            #expect(card.barcodeType == .symbology(.aztec) && card.headerColor == -9_977_996)
        }
    }

    @Test(
        "any text survives the round trip, and Catima's reader reads the same fields",
        arguments: ["Gold's Gym", "A&B=C+D %20 100%", "Café ☃ 健身", "line\nbreak", ""])
    func roundTrip(store: String) throws {
        let card = CatimaCard(
            store: store.isEmpty ? "x" : store, note: store, cardID: "ID+&=%#?/ 1",
            barcodeType: .symbology(.qr))
        let link = CatimaShareLink.link(for: card)
        #expect(!link.dropFirst("https://catima.app/share#".count).contains { "&=+ #?".contains($0) })
        #expect(try CatimaShareLink.card(from: link) == card)
        let fields = try #require(CatimaLinkModel.fields(of: link))
        #expect(fields.store == card.store && fields.note == card.note && fields.cardID == card.cardID)
        #expect(fields.barcodeType == "QR_CODE")
    }

    @Test("the older hosts and pre-2.0 query links are read")
    func olderHosts() throws {
        for prefix in [
            "https://thelastproject.github.io/Catima/share",
            "https://brarcher.github.io/loyalty-card-locker/share",
        ] {
            let card = try CatimaShareLink.card(
                from: prefix + "#store%3DGym%26note%3D%26cardid%3DA1B%26barcodetype%3DCODABAR")
            #expect(card.store == "Gym")
            #expect(try card.barcodeContent().text == "A1B")
        }
        let old = try CatimaShareLink.card(
            from: "https://catima.app/share?store=Big%20Gym&note=n+1&cardid=42")
        #expect(old.store == "Big Gym" && old.note == "n 1" && old.cardID == "42" && old.barcodeType == .none)
    }

    @Test(
        "what is not a Catima link is one neutral line",
        arguments: [
            ("https://example.com/share#store%3DGym%26note%3D%26cardid%3D1", CatimaError.notAShareLink("")),
            ("catima.app/share#store%3DGym", .notAShareLink("")),
            ("https://catima.app/share#store%3DGym%26cardid%3DSECRET1", .linkMissingField("note")),
            ("https://catima.app/share#store%3DGym%26note%3D%26cardid%3DSECRET1%25G", .badLinkEncoding),
        ])
    func refused(link: String, expected: CatimaError) throws {
        let error = try #require(throws: CatimaError.self) { try CatimaShareLink.card(from: link) }
        switch (error, expected) {
        case (.notAShareLink, .notAShareLink): break
        default: #expect(error == expected)
        }
        #expect(!error.description.contains("SECRET1") && !error.description.contains("\n"))
    }
}

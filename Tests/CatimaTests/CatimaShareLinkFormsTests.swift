import Catima
import Symbologies
import TestSupport
import Testing

/// Every form of share link Catima's parser accepts, generated from its rules (``CatimaLinkModel``): three
/// hosts × http/https × a port or a user name × a trailing slash × the 2.0 fragment (encoded twice, or
/// once for plain values), the pre-2.0 query, both with the fragment overriding, fields in any order,
/// unknown fields, a trailing `&`. gymcard reads each as Catima does; what Catima refuses, gymcard refuses.
@Suite("Catima share links: every form Catima's parser accepts")
struct CatimaShareLinkFormsTests {
    struct Fields: Sendable {
        var store: String
        var note: String
        var cardID: String
        var barcodeID: String?
        var barcodeType: String?
        var barcodeEncoding: String?
        var headerColor: String?

        /// The fields as `key=value` pairs, in `toUri`'s order (balance 0 after the note).
        var pairs: [(String, String)] {
            var pairs = [("store", store), ("note", note), ("balance", "0"), ("cardid", cardID)]
            if let barcodeID { pairs.append(("barcodeid", barcodeID)) }
            if let barcodeType { pairs.append(("barcodetype", barcodeType)) }
            if let barcodeEncoding { pairs.append(("barcodeencoding", barcodeEncoding)) }
            if let headerColor { pairs.append(("headercolor", headerColor)) }
            return pairs
        }

        /// Only letters, digits and spaces: a fragment encoded once reads the same.
        var isPlain: Bool {
            pairs.allSatisfy { $0.1.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == " " } }
        }
    }

    static let cards: [Fields] = [
        Fields(
            store: "Grocery Store", note: "Quite necessary", cardID: "dhd", barcodeType: "AZTEC",
            headerColor: "-9977996"),
        Fields(
            store: "cheese", note: "", cardID: "Käseschnitte", barcodeType: "AZTEC", barcodeEncoding: "UTF-8",
            headerColor: "-5414233"),
        Fields(
            store: "Card 1", note: "Note 1", cardID: "1234", barcodeID: "5432", barcodeType: "QR_CODE",
            barcodeEncoding: "", headerColor: "1"),
        Fields(
            store: "Gold's Gym & Spa", note: "a=b+c %20 #1?", cardID: "A905123456B", barcodeType: "CODABAR",
            barcodeEncoding: "ISO-8859-1"),
        Fields(store: "Gym", note: "two\nlines", cardID: "GYM 42", barcodeType: "CODE_128"),
        Fields(store: "Pool", note: "", cardID: "€uro 健身", barcodeType: "QR_CODE", barcodeEncoding: "utf8"),
        // Plain values: also in a fragment encoded once.
        Fields(store: "Big Gym", note: "Quite necessary", cardID: "12345678", barcodeType: "ITF"),
    ]

    /// Java's URLEncoder (space as `+`).
    static func formEncoded(_ value: String) -> String {
        percent(value, keeping: "._-*", spaceAsPlus: true)
    }

    /// Android's Uri.encode.
    static func uriEncoded(_ value: String) -> String {
        percent(value, keeping: "_-!.~'()*", spaceAsPlus: false)
    }

    static func percent(_ value: String, keeping: String, spaceAsPlus: Bool) -> String {
        var out = ""
        for byte in value.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (scalar.isASCII && (Character(scalar).isLetter || Character(scalar).isNumber))
                || keeping.unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else if byte == 0x20, spaceAsPlus {
                out += "+"
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }

    /// How the fields travel.
    enum Form: CaseIterable {
        case fragmentTwice, fragmentOnce, query, queryWithPlus, queryOverriddenByFragment, split
    }

    struct Link: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: Fields
        var testDescription: String { String(text.prefix(90)) }
    }

    /// Every combination, fields shuffled and extras added from a fixed seed.
    static let links: [Link] = {
        var generator = SeededGenerator(seed: 6)
        var links: [Link] = []
        for card in cards {
            for (host, path) in CatimaShareLink.hosts {
                for scheme in ["https", "http"] {
                    for decoration in ["", ":443", "me@"] {
                        for slash in ["", "/"] {
                            for form in Form.allCases where form != .fragmentOnce || card.isPlain {
                                var pairs = card.pairs
                                if Bool.random(using: &generator) { pairs.shuffle(using: &generator) }
                                if Bool.random(using: &generator) { pairs.append(("notforeseen", "no")) }
                                let authority = decoration == "me@" ? "me@" + host : host + decoration
                                let base = "\(scheme)://\(authority)\(path)\(slash)"
                                let fragment = pairs.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&")
                                let trailing = Bool.random(using: &generator) ? "&" : ""
                                let query = pairs.map { "\(uriEncoded($0))=\(uriEncoded($1))" }.joined(
                                    separator: "&")
                                let text: String
                                switch form {
                                case .fragmentTwice: text = base + "#" + uriEncoded(fragment + trailing)
                                case .fragmentOnce:
                                    text =
                                        base + "#"
                                        + pairs.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&")
                                case .query: text = base + "?" + query
                                case .queryWithPlus:
                                    text =
                                        base + "?"
                                        + pairs.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&")
                                case .queryOverriddenByFragment:
                                    let stale = "store=Old&cardid=0000&note=old&barcodetype=EAN_13"
                                    text = base + "?" + stale + "#" + uriEncoded(fragment)
                                case .split:
                                    // The query carries what the fragment lacks.
                                    let inQuery = pairs.filter { $0.0 == "note" || $0.0 == "store" }
                                    let inFragment = pairs.filter { $0.0 != "note" && $0.0 != "store" }
                                    text =
                                        base + "?"
                                        + inQuery.map { "\($0)=\(uriEncoded($1))" }.joined(separator: "&")
                                        + "#"
                                        + uriEncoded(
                                            inFragment.map { "\($0)=\(formEncoded($1))" }.joined(
                                                separator: "&"))
                                }
                                links.append(Link(text: text, expected: card))
                            }
                        }
                    }
                }
            }
        }
        return links
    }()

    @Test("the table covers every form, and Catima's model accepts each link as its card")
    func tableIsCatimas() throws {
        #expect(Self.links.count >= 1200)
        #expect(Self.links.filter { $0.text.contains("#") && !$0.text.contains("%3D") }.count == 36)
        for link in Self.links {
            guard case .card(let card, let damaged) = CatimaLinkModel.parse(link.text) else {
                Issue.record("Catima's model refuses \(link.text)")
                continue
            }
            #expect(!damaged)
            #expect(card.store == link.expected.store && card.cardID == link.expected.cardID, "\(link.text)")
        }
    }

    @Test("gymcard reads every form Catima accepts to the same card, and draws it")
    func gymcardReadsIt() throws {
        for link in Self.links {
            guard case .card(let catima, _) = CatimaLinkModel.parse(link.text) else { continue }
            let card: CatimaCard
            do { card = try CatimaShareLink.card(from: link.text) } catch {
                Issue.record("refused: \(link.text): \(error)")
                continue
            }
            #expect(
                card.store == catima.store && card.note == catima.note && card.cardID == catima.cardID,
                "\(link.text)")
            #expect(card.barcodeID == catima.barcodeID.flatMap { $0.isEmpty ? nil : $0 }, "\(link.text)")
            #expect(card.barcodeType.catimaName == catima.barcodeType ?? "", "\(link.text)")
            #expect(card.headerColor == catima.headerColor, "\(link.text)")
            #expect(
                (try card.textEncoding()?.catimaName ?? "ISO-8859-1") == catima.barcodeEncoding,
                "\(link.text)")
            let content = try card.barcodeContent()
            #expect(content.text == (catima.barcodeID ?? catima.cardID), "\(link.text)")
        }
    }

    /// Links Catima's parser refuses (or throws on), each next to a form it accepts.
    static let refusedByCatima: [String] = [
        "https://catima.app/share//#store%3DGym%26note%3D%26cardid%3D1",
        "https://catima.app/shares#store%3DGym%26note%3D%26cardid%3D1",
        "https://catima.app/Share#store%3DGym%26note%3D%26cardid%3D1",
        "https://example.com/share#store%3DGym%26note%3D%26cardid%3D1",
        "https://catima.app.example.com/share#store%3DGym%26note%3D%26cardid%3D1",
        "https://catima.app/share#store%3DGym%26note%26cardid%3D1",
        "https://catima.app/share#%26store%3DGym%26note%3D%26cardid%3D1",
        "https://catima.app/share#store%3DGym%26%26note%3D%26cardid%3D1",
        "https://catima.app/share#stare%3Dstore%26note%3Dnote%26balance%3D0%26cardid%3D12345",
        "https://catima.app/share#",
        "https://catima.app/share?store=Gym&note=&cardid=1#",
        "https://catima.app/share#store%3DGym%26note%3D%26cardid%3D1%26headercolor%3D",
        "https://catima.app/share#store%3DGym%26note%3D%26cardid%3D1%26headercolor%3Dred",
        "https://catima.app/share#store%3DGym%26note%3D%26cardid%3D1%26headercolor%3D4294967295",
        "https://catima.app/share?store=Gym&note=&cardid=1&headercolor=-1.5",
        "https://catima.app/share#store%3DGym%26note%3D%26cardid%3D%25ZZ",
    ]

    @Test("what Catima refuses, gymcard refuses with one line", arguments: refusedByCatima)
    func refused(_ link: String) throws {
        switch CatimaLinkModel.parse(link) {
        case .card(_, let damaged): #expect(Bool(false), "Catima's model accepts it (damaged: \(damaged))")
        case .invalid, .crash: break
        }
        let error = try #require(throws: CatimaError.self) { try CatimaShareLink.card(from: link) }
        #expect(!error.description.contains("\n"))
    }

    @Test("a link Catima would read with U+FFFD in place of what it cannot decode is refused as damaged")
    func damagedRefused() throws {
        for link in [
            "https://catima.app/share?store=Gym&note=50%&cardid=1",
            "https://catima.app/share#store%3DGym%26note%3D%26cardid%3D%25C3",
        ] {
            guard case .card(_, damaged: true) = CatimaLinkModel.parse(link) else {
                Issue.record("Catima's model reads \(link) without U+FFFD")
                continue
            }
            #expect(throws: CatimaError.badLinkEncoding) { try CatimaShareLink.card(from: link) }
        }
    }

    /// Valid texts per symbology (each of the 13), and 2D texts of every character class.
    static let storedTexts: [(Symbology, String)] = [
        (.codabar, "A905123456B"), (.codabar, "C12-345:678/90D"), (.code39, "GYM-0042 $/+%."),
        (.code93, "Gym 42!"), (.code128, "Gym#42~ {x}&=+%"), (.itf, "00012345678905"), (.ean8, "96385074"),
        (.ean13, "4006381333931"), (.upca, "036000291452"), (.upce, "01234565"), (.qr, "MEMBER 12345"),
        (.qr, "Äb"), (.qr, "Ã©"), (.aztec, "Käseschnitte"), (.datamatrix, "€uro"), (.pdf417, "健身 #42&x=1+2"),
        (.aztec, "😀 pass"), (.datamatrix, "https://gym.example/m?id=42&x=1"),
    ]

    @Test("the link gymcard writes for any card reads in Catima's parser as that card, its encoding included")
    func gymcardLinksReadByCatima() throws {
        var generator = SeededGenerator(seed: 61)
        let labels = [nil, "Gold's Gym & Spa", "a=b+c %20", "Café ☃", "  ", "#1\nline"] as [String?]
        var checked = 0
        for (symbology, text) in Self.storedTexts {
            for named in [nil, TextEncoding.isoLatin1, .utf8] as [TextEncoding?] {
                guard
                    let content = try? BarcodeContent(
                        symbology: symbology, normalizing: text, encoding: named)
                else { continue }
                for label in labels {
                    var card = CatimaCard(exporting: content, label: label)
                    // Half of them as a card imported from Catima: its own encoding, colour and card ID.
                    if Bool.random(using: &generator) {
                        card.barcodeEncoding = named?.catimaName
                        card.headerColor =
                            Bool.random(using: &generator)
                            ? Int32.random(in: .min ... .max, using: &generator) : nil
                        if Bool.random(using: &generator) {
                            card.barcodeID = card.cardID
                            card.cardID = "Member \(Int.random(in: 0...99999, using: &generator)) & co"
                        }
                    }
                    let link = CatimaShareLink.link(for: card)
                    guard case .card(let read, damaged: false) = CatimaLinkModel.parse(link) else {
                        Issue.record("Catima's model does not read \(symbology.name) \(text)")
                        continue
                    }
                    #expect(read.store == card.store && read.note == card.note && read.cardID == card.cardID)
                    #expect(read.barcodeID == card.barcodeID && read.headerColor == card.headerColor)
                    #expect(read.barcodeType == symbology.catimaName)
                    #expect((read.barcodeID ?? read.cardID) == content.text, "the text Catima draws")
                    // The encoding the card names; without one, UTF-8 for UTF-8 text, else ISO-8859-1 (Catima's
                    // default for an empty field).
                    let expected =
                        card.barcodeEncoding.flatMap(TextEncoding.init(catimaName:))?.catimaName
                        ?? (content.encoding == .utf8 ? "UTF-8" : "ISO-8859-1")
                    #expect(
                        read.barcodeEncoding == expected,
                        "\(symbology.name) \(text) \(named?.catimaName ?? "none")")
                    checked += 1
                }
            }
        }
        #expect(checked >= 200)
    }

    @Test("a host in capitals is read too (Catima compares hosts case-sensitively; browsers lower-case them)")
    func hostCase() throws {
        let card = try CatimaShareLink.card(
            from: "https://CATIMA.app/share#store%3DGym%26note%3D%26cardid%3D1")
        #expect(card.store == "Gym")
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}

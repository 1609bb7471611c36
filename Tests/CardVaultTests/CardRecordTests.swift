import Foundation
import Symbologies
import Testing

@testable import CardVault

/// The card document: schema 2 keeps any symbology's exact text; schema 1 (Codabar only) still reads.
@Suite struct CardRecordTests {
    @Test(
        "schema 2 keeps the symbology and the exact text",
        arguments: [
            (Symbology.code128, "GYM0042a/7 x"), (.code39, "GYM-0042X"), (.ean13, "4006381333931"),
            (.codabar, "C12-345:678/90D"), (.qr, "MEMBER 12345"),
        ])
    func schemaTwo(symbology: Symbology, text: String) throws {
        let content = try BarcodeContent(symbology: symbology, normalizing: text)
        let record = CardRecord(content: content, label: "Key tag")
        let read = try CardRecord.decoded(record.encoded())
        #expect(read.schemaVersion == 2)
        #expect(try read.content() == content)
        #expect(read.label == "Key tag")
    }

    /// A schema-1 document in the shape gymcard wrote before symbologies, with any symbology.
    static func schemaOne(id: String, symbology: String = "codabar") -> [UInt8] {
        Array(
            """
            {
              "created" : "2026-11-26T01:21:03Z",
              "id" : "\(id)",
              "schemaVersion" : 1,
              "symbology" : "\(symbology)",
              "updated" : "2026-11-26T01:21:03Z"
            }
            """.utf8)
    }

    @Test(
        "a schema-1 card is a Codabar card; one that says another symbology, or a stored text that is not exact, is damaged"
    )
    func schemaOne() throws {
        // Written by gymcard before symbologies (Tests/Fixtures/vault-schema1/README.md).
        let fixture = #filePath.replacingOccurrences(
            of: "CardVaultTests/CardRecordTests.swift", with: "Fixtures/vault-schema1/plain/card.json")
        let record = try CardRecord.decoded(Array(try Data(contentsOf: URL(fileURLWithPath: fixture))))
        #expect(record.label == "Hokie Passport")
        #expect(record.schemaVersion == 1)
        #expect(try record.content() == BarcodeContent(symbology: .codabar, normalizing: "905123456"))
        #expect(throws: VaultError.self) {
            try CardRecord.decoded(Self.schemaOne(id: "GYM1", symbology: "code128"))
        }
        var lower = CardRecord(content: try BarcodeContent(symbology: .code39, normalizing: "GYM"))
        lower.id = "gym"
        #expect(throws: VaultError.self) { try CardRecord.decoded(lower.encoded()) }
        var unknown = lower
        unknown.symbology = "maxicode"
        #expect(throws: VaultError.self) { try CardRecord.decoded(unknown.encoded()) }
    }

    @Test("a schema newer than this gymcard's is refused")
    func newer() throws {
        let document = String(decoding: Self.schemaOne(id: "GYM", symbology: "code128"), as: UTF8.self)
            .replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 4")
        #expect(throws: VaultError.self) { try CardRecord.decoded(Array(document.utf8)) }
    }

    @Test(
        "schema 3 keeps the encoding and Catima's fields; only a card that has them is written as schema 3",
        arguments: [
            (Symbology.aztec, "Käseschnitte", TextEncoding.utf8, Int32(-5_414_233), "Käse 9"),
            (.code128, "23456", .isoLatin1, -10_902_850, "98765432"), (.qr, "5432", nil, 1, "1234"),
            (.aztec, "-5317", nil, nil, "a"), (.qr, "Ã©", .isoLatin1, nil, nil),
        ] as [(Symbology, String, TextEncoding?, Int32?, String?)])
    func schemaThree(
        symbology: Symbology, text: String, encoding: TextEncoding?, color: Int32?, cardID: String?
    ) throws {
        let content = try BarcodeContent(symbology: symbology, normalizing: text, encoding: encoding)
        let catima = CardRecord.CatimaFields(encoding: encoding, headerColor: color, cardID: cardID)
        let record = CardRecord(content: content, label: "cheese", catima: catima)
        let json = String(decoding: record.encoded(), as: UTF8.self)
        #expect(json.contains("\"schemaVersion\" : 3"), "a gymcard that reads schema 2 at most refuses it")
        let read = try CardRecord.decoded(record.encoded())
        #expect(read.catima == catima)
        #expect(read.encoding == content.encoding && read.label == "cheese")
        #expect(try read.content() == content)
        #expect(try read.content().eciDesignator == content.eciDesignator)
        #expect(String(describing: catima).contains(cardID == nil ? "cardID: none" : "cardID: <redacted>"))
    }

    @Test("a card without an encoding or Catima's fields is still written as schema 2")
    func plainStaysSchemaTwo() throws {
        let record = CardRecord(content: try BarcodeContent(symbology: .qr, normalizing: "GYM 42"))
        #expect(record.encoding == nil && record.catima == nil)
        #expect(String(decoding: record.encoded(), as: UTF8.self).contains("\"schemaVersion\" : 2"))
        let wide = CardRecord(content: try BarcodeContent(symbology: .qr, normalizing: "中文"))
        #expect(wide.encoding == .utf8, "a text beyond Latin-1 is UTF-8")
        #expect(String(decoding: wide.encoded(), as: UTF8.self).contains("\"schemaVersion\" : 3"))
    }

    @Test("a schema-2 file of a 2D card reads with no encoding and no Catima fields")
    func schemaTwoFile() throws {
        let document = String(decoding: Self.schemaOne(id: "Äb", symbology: "aztec"), as: UTF8.self)
            .replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2")
        let record = try CardRecord.decoded(Array(document.utf8))
        #expect(record.encoding == nil && record.catima == nil)
        #expect(try record.content().eciDesignator == 3)
    }

    @Test("a stored ISO-8859-1 card whose text is beyond Latin-1 is damaged, not drawn")
    func latin1BeyondIsDamaged() throws {
        var record = CardRecord(content: try BarcodeContent(symbology: .qr, normalizing: "Euro"))
        record.encoding = .isoLatin1
        record.id = "€uro"
        #expect(throws: VaultError.self) { try CardRecord.decoded(record.encoded()) }
    }
}

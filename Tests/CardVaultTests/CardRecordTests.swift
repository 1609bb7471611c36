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
        var record = CardRecord(content: try BarcodeContent(symbology: .code128, normalizing: "GYM"))
        record.schemaVersion = 3
        #expect(throws: VaultError.self) { try CardRecord.decoded(record.encoded()) }
    }
}

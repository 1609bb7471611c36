import Catima
import Foundation
import Symbologies
import Testing

@Suite("Catima CSV: what gymcard writes, to the byte")
struct CatimaCSVWriterTests {
    static func virginiaTech() throws -> BarcodeContent {
        try BarcodeContent(symbology: .codabar, normalizing: "123456789")
    }

    @Test("a Virginia Tech card is the version-2 file of EXPORT_FORMAT.md, byte for byte")
    func hokiePassport() throws {
        let card = CatimaCard(exporting: try Self.virginiaTech(), label: nil)
        let bytes = CatimaCSV.export(card)
        let expected =
            "2\r\n\r\n_id\r\n\r\n"
            + "_id,store,note,validfrom,expiry,balance,balancetype,cardid,barcodeid,barcodetype,barcodeencoding,"
            + "headercolor,starstatus,lastused,archive\r\n"
            + "1,Hokie Passport,,,,0,,A123456789B,,CODABAR,,-7987391,0,0,0\r\n"
            + "\r\ncardId,groupId\r\n"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        // CRLF only: no bare LF, no bare CR.
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            #expect(index > 0 && bytes[index - 1] == 0x0D)
        }
        for (index, byte) in bytes.enumerated() where byte == 0x0D {
            #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0A)
        }
    }

    @Test(
        "the card header is the one in Catima's docs and in its own export",
        .enabled(if: CatimaFixtures.isAvailable))
    func headerMatchesCatima() throws {
        let header = CatimaCSV.cardColumns.joined(separator: ",")
        #expect(try CatimaFixtures.text("EXPORT_FORMAT.md").contains("\n" + header + "\n"))
        #expect(try CatimaFixtures.text("catima_v2.csv").contains("\r\n" + header + "\r\n"))
        let written = String(
            decoding: CatimaCSV.export(CatimaCard(exporting: try Self.virginiaTech(), label: nil)),
            as: UTF8.self)
        // The skeleton around the tables is Catima's: version, blank, groups header, blank … blank, links header.
        let fixture = try CatimaFixtures.text("catima_v2.csv")
        #expect(fixture.hasPrefix("2\r\n\r\n_id\r\n"))
        #expect(written.hasPrefix("2\r\n\r\n_id\r\n"))
        #expect(fixture.contains("\r\n\r\ncardId,groupId\r\n"))
        #expect(written.hasSuffix("\r\n\r\ncardId,groupId\r\n"))
    }

    @Test(
        "fields are quoted only where Commons CSV's minimal quoting quotes them",
        arguments: [
            ("Gold's Gym", "Gold's Gym"),
            ("Gym, Downtown", "\"Gym, Downtown\""),
            ("The \"Y\"", "\"The \"\"Y\"\"\""),
            ("#1 Fitness", "\"#1 Fitness\""),
            ("Trailing ", "\"Trailing \""),
            ("Two\nlines", "\"Two\nlines\""),
        ])
    func quoting(store: String, written: String) throws {
        let card = CatimaCard(store: store, cardID: "X123", barcodeType: .symbology(.code128), headerColor: 5)
        let text = String(decoding: CatimaCSV.export(card), as: UTF8.self)
        #expect(text.contains("\r\n1," + written + ",,,,0,,X123,,CODE_128,,5,0,0,0\r\n"))
    }

    @Test(
        "the store is the label, else Hokie Passport for a Virginia Tech ID, else Gym card; the ID is the exact text"
    )
    func storeAndID() throws {
        let plain = try BarcodeContent(symbology: .codabar, normalizing: "C4567D")
        #expect(CatimaCard(exporting: plain, label: nil).store == "Gym card")
        #expect(CatimaCard(exporting: plain, label: nil).cardID == "C4567D")
        #expect(CatimaCard(exporting: try Self.virginiaTech(), label: "  Rec Center  ").store == "Rec Center")
        #expect(CatimaCard(exporting: try Self.virginiaTech(), label: "").store == "Hokie Passport")
        let qr = try BarcodeContent(symbology: .qr, normalizing: "Käse ☃")
        #expect(
            String(decoding: CatimaCSV.export(CatimaCard(exporting: qr, label: nil)), as: UTF8.self).contains(
                ",QR_CODE,UTF-8,"))
    }
}

@Suite("Catima CSV: the check written from Catima's importer accepts what gymcard writes")
struct CatimaCheckerTests {
    static let contents: [(Symbology, String)] = [
        (.codabar, "123456789"), (.code128, "GYM-0042"), (.code39, "AB12"), (.ean13, "400638133393"),
        (.qr, "Käse, \"quoted\" ☃"),
    ]

    @Test("Catima's importer would store exactly the card written", arguments: contents)
    func checkerAccepts(symbology: Symbology, text: String) throws {
        let content = try BarcodeContent(symbology: symbology, normalizing: text)
        let card = CatimaCard(exporting: content, label: "Gym, \"North\"\nsecond line")
        let imported = try CatimaImporterModel.importCSV(CatimaCSV.export(card))
        #expect(imported.cards.count == 1)
        let stored = try #require(imported.cards.first)
        #expect(stored.store == "Gym, \"North\"\nsecond line")
        #expect(stored.cardID == content.text)
        #expect(stored.barcodeID == nil)
        #expect(stored.barcodeType == content.symbology.catimaName)
        #expect(stored.headerColor == card.headerColor)
        #expect(imported.groups.isEmpty && imported.cardGroups.isEmpty)
    }

    @Test(
        "the check reads Catima's own export as Catima's tests do", .enabled(if: CatimaFixtures.isAvailable))
    func checkerReadsCatimasOwnExport() throws {
        let imported = try CatimaImporterModel.importCSV(try CatimaFixtures.bytes("catima_v2.csv"))
        #expect(imported.groups == ["Health", "Food", "Fashion"])
        #expect(imported.cards.count == 8)
        #expect(
            imported.cards.first { $0.store == "Grocery Store" }?.note
                == "Multiline note about grocery store\n\nwith blank line")
        #expect(imported.cardGroups.count == 5)
        let v1 = try CatimaImporterModel.importCSV(try CatimaFixtures.bytes("catima_v1_starred_field.csv"))
        #expect(
            v1.cards == [
                .init(
                    id: 1, store: "store", note: "note", cardID: "12345", barcodeType: "AZTEC",
                    headerColor: 1, starStatus: 1)
            ])
    }

    @Test("the check refuses what Catima refuses: a cut file, an unknown type, a foreign zip entry")
    func checkerRefuses() throws {
        let card = CatimaCard(
            exporting: try BarcodeContent(symbology: .codabar, normalizing: "123456789"), label: nil)
        let written = CatimaCSV.export(card)
        // A card section that never parses leaves Catima with no card.
        let cut = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: ",0,0,0\r\n", with: "\r\n")
        #expect(throws: CatimaImporterModel.Crash.self) { try CatimaImporterModel.importCSV(Array(cut.utf8)) }
        let unknown = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: "CODABAR", with: "BARCODE")
        #expect(throws: CatimaImporterModel.Crash.self) {
            try CatimaImporterModel.importCSV(Array(unknown.utf8))
        }
        // A quoted field left open: the part never parses, and Catima stores no card.
        let open = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: ",Hokie", with: ",\"Hokie")
        #expect(try CatimaImporterModel.importCSV(Array(open.utf8)).cards.isEmpty)
        #expect(throws: CatimaImporterModel.Failure.self) {
            try CatimaImporterModel.checkEntries(["catima.csv", "notes.txt"])
        }
        #expect(throws: CatimaImporterModel.Failure.self) {
            try CatimaImporterModel.checkEntries(["catima.csv", "photo.png"])
        }
        try CatimaImporterModel.checkEntries(["catima.csv", "card_1_front.png"])
    }
}

@Suite("Catima CSV: reading Catima's files")
struct CatimaCSVReaderTests {
    @Test(
        "Catima's version-2 export: the card chosen by store, its ID and type",
        .enabled(if: CatimaFixtures.isAvailable))
    func version2() throws {
        let contents = try CatimaCSV.read(try CatimaFixtures.bytes("catima_v2.csv"))
        #expect(contents.version == 2)
        #expect(contents.groups == ["Health", "Food", "Fashion"])
        #expect(
            contents.cards.map(\.store) == [
                "Pharmacy", "Card 1", "cheese", "Clothes Store", "Department Store", "Grocery Store",
                "Restaurant",
                "Shoe Store",
            ])
        let restaurant = try #require(contents.cards.first { $0.store == "Restaurant" })
        #expect(restaurant.cardID == "98765432")
        #expect(restaurant.barcodeID == "23456")
        #expect(restaurant.barcodeType == .symbology(.code128))
        #expect(restaurant.line == 17)
        // The barcode carries barcodeid when it is set, as Catima draws it.
        #expect(try restaurant.barcodeContent() == BarcodeContent(symbology: .code128, normalizing: "23456"))
        let card1 = try #require(contents.cards.first { $0.store == "Card 1" })
        #expect(card1.barcodeType == .symbology(.qr))
        #expect(card1.headerColor == 1)
        let grocery = try #require(contents.cards.first { $0.store == "Grocery Store" })
        #expect(grocery.note == "Multiline note about grocery store\n\nwith blank line")
        #expect(grocery.barcodeType == .none)
        #expect(throws: CatimaError.noBarcodeType(line: grocery.line)) { try grocery.barcodeContent() }
        let pharmacy = try #require(contents.cards.first { $0.store == "Pharmacy" })
        #expect(pharmacy.isStarred && pharmacy.headerColor == -10_902_850)
        let cheese = try #require(contents.cards.first { $0.store == "cheese" })
        #expect(try cheese.barcodeContent().symbology == .aztec)
        // The card chosen by store, as import --store will.
        #expect(contents.cards(store: "Restaurant").map(\.cardID) == ["98765432"])
        #expect(contents.cards(store: " restaurant ").map(\.cardID) == ["98765432"])
        #expect(contents.cards(store: "Gym").isEmpty)
    }

    @Test("Catima's version-1 export with the starred field", .enabled(if: CatimaFixtures.isAvailable))
    func version1() throws {
        let contents = try CatimaCSV.read(try CatimaFixtures.bytes("catima_v1_starred_field.csv"))
        #expect(contents.version == 1)
        #expect(contents.cards.count == 1)
        let card = try #require(contents.cards.first)
        #expect(card.store == "store" && card.note == "note" && card.cardID == "12345")
        #expect(card.barcodeType == .symbology(.aztec))
        #expect(card.isStarred && card.headerColor == 1 && card.line == 2)
    }

    @Test("a type gymcard cannot draw is named and refused", .enabled(if: CatimaFixtures.isAvailable))
    func unsupportedType() throws {
        let text = try CatimaFixtures.text("catima_v2.csv").replacingOccurrences(
            of: ",AZTEC,UTF-8,", with: ",MAXICODE,UTF-8,")
        let contents = try CatimaCSV.read(Array(text.utf8))
        let cheese = try #require(contents.cards.first { $0.store == "cheese" })
        #expect(cheese.barcodeType == .unsupported("MAXICODE"))
        let error = try #require(throws: CatimaError.self) { try cheese.barcodeContent() }
        #expect(error.description.contains("MAXICODE") && error.description.contains("cannot draw"))
        #expect(error.description.contains("line 11"))
    }

    @Test("missing columns: only store and cardid are needed")
    func missingColumns() throws {
        let contents = try CatimaCSV.read(Array("_id,store,cardid,barcodetype\n7,Gym,A1234B,CODABAR\n".utf8))
        #expect(contents.cards.map(\.cardID) == ["A1234B"])
        #expect(contents.cards.first?.note == "")
        #expect(throws: CatimaError.missingColumn("cardid", line: 1)) {
            try CatimaCSV.read(Array("_id,store,barcodetype\n7,Gym,CODABAR\n".utf8))
        }
    }

    @Test("a Codabar value without start/stop letters gets gymcard's normalization")
    func codabarNormalized() throws {
        let card = try #require(
            try CatimaCSV.read(Array("store,cardid,barcodetype\nGym,123456789,CODABAR\n".utf8)).cards.first)
        #expect(try card.barcodeContent().text == "A123456789B")
    }

    @Test(
        "damaged CSV files give one neutral line each, naming the line",
        arguments: [
            ("2\r\n\r\n_id\r\n\r\n_id,store,cardid\r\n1,\"Gym,A1B\r\n", CatimaError.unclosedQuote(line: 6)),
            (
                "2\r\n\r\n_id\r\n\r\n_id,store,cardid\r\n1,Gym\r\n",
                .wrongFieldCount(found: 2, expected: 3, line: 6)
            ),
            ("_id,store,cardid\n1,\"Gym\"x,A1B\n", .textAfterQuote(line: 2)),
            ("_id,store,cardid\n1,,A1B\n", .emptyField("store", line: 2)),
            ("3\r\n\r\n_id\r\n", .unsupportedVersion("3")),
            ("2\r\n\r\n_id\r\nGym\r\n", .missingCardSection),
            ("_id,store,cardid\n", .noCards),
        ])
    func damaged(text: String, error: CatimaError) throws {
        #expect(throws: error) { try CatimaCSV.read(Array(text.utf8)) }
        #expect(!error.description.contains("\n"))
        #expect(!error.description.contains("A1B"))
    }

    @Test("bytes that are not UTF-8 name their line")
    func notText() throws {
        let bytes = Array("_id,store,cardid\n1,Gym,A1B\n".utf8) + [0xFF, 0xFE] + Array(",x\n".utf8)
        #expect(throws: CatimaError.notText(line: 3)) { try CatimaCSV.read(bytes) }
    }
}

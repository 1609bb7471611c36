import CardVault
import Catima
import Foundation
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import GymcardCore

/// Every card with a barcode in Catima's own test exports (`../shared/realworld/catima/*.csv`, read from
/// there, never copied): imported, drawn and exported, it keeps its barcode's bytes, its encoding and its
/// colour. The drawing is read back by zxing-cpp (PyPI), the export by Python's csv module: readers that
/// are not gymcard's.
@Suite("Catima's own test cards: import, draw and export keep bytes, encoding and colour")
struct CatimaRealWorldTests {
    static let folder = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/catima").path

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".csv") }
            .sorted()
    }

    /// The card records of a Catima CSV as Python's csv module reads them (version 1 or 2), by store: each
    /// record of the card table as a column → value dictionary.
    static let pythonCards = """
        import csv, io, json, sys
        text = open(sys.argv[1], encoding="utf-8", newline="").read()
        rows = list(csv.reader(io.StringIO(text)))
        start = next(i for i, row in enumerate(rows) if "cardid" in row)
        header, cards = rows[start], []
        for row in rows[start + 1:]:
            if not row or row == [""] or row[0] == "cardId": break
            cards.append(dict(zip(header, row)))
        json.dump(cards, sys.stdout)
        """

    static func pythonCards(_ path: String) async throws -> [[String: String]] {
        let (status, output, error) = try await Interop.runPython(pythonCards, [path])
        guard status == 0 else { throw CatimaProblem("python csv: \(error)", kind: .badData) }
        return try JSONDecoder().decode([[String: String]].self, from: output)
    }

    @Test(
        "every card with a barcode: the same text bytes, encoding, ECI and colour through import, show and export",
        .enabled(
            if: Prerequisite.runs(
                FileManager.default.fileExists(atPath: folder + "/catima_v2.csv")
                    && IndependentReaders.hasZXingCpp)))
    func everyCard() async throws {
        #expect(Self.files.count >= 2, "Catima's test exports in \(Self.folder)")
        var checked = 0
        for file in Self.files {
            let path = Self.folder + "/" + file
            let originals = try await Self.pythonCards(path)
            for original in originals where !(original["barcodetype"] ?? "").isEmpty {
                let store = try #require(original["store"])
                let setup = try CatimaTransferTests.Setup()
                let access = try setup.access()
                let cards = try CardImport.cards(
                    in: .file(path), password: try setup.password(nil), say: { _ in })
                let card = try CardImport.choose(from: cards, store: store, list: { _ in }, ask: { _ in nil })
                _ = try CardImport.store(card, access: access, noPassphrase: true, say: { _ in })
                let record = try access.unlock().record
                let content = try record.content()

                // The barcode: its text is barcodeid, else cardid, in the card's encoding.
                let text =
                    (original["barcodeid"] ?? "").isEmpty
                    ? original["cardid"] ?? "" : original["barcodeid"] ?? ""
                let utf8 = original["barcodeencoding"] == "UTF-8"
                #expect(content.text == text, "\(file) \(store)")
                #expect(
                    content.bytes == (utf8 ? Array(text.utf8) : text.unicodeScalars.map { UInt8($0.value) }))
                let png = setup.directory.path + "/card.png"
                let image = MatrixRaster.image(
                    of: try ModuleMatrix(encoding: content), style: try BarcodeStyle(narrowBarWidth: 3))
                try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: png))
                let read = try await IndependentReaders.zxingCpp([png])[png] ?? []
                #expect(read.map(\.text) == [text], "\(file) \(store): zxing-cpp")
                #expect(read.map(\.bytes) == [content.bytes], "\(file) \(store): the bytes drawn")
                let ascii = text.unicodeScalars.allSatisfy(\.isASCII)
                #expect(read.map(\.eci) == [utf8 ? 26 : (ascii ? nil : 3)], "\(file) \(store): the ECI")

                // The export gives back what the file had, as Python's csv reads both.
                let exported = setup.directory.path + "/export.csv"
                _ = try CardExport.export(access, to: exported, format: .csv, password: nil, replacing: true)
                let back = try #require(try await Self.pythonCards(exported).first)
                for column in ["cardid", "barcodeid", "barcodetype", "barcodeencoding", "headercolor"] {
                    #expect(back[column] == original[column] ?? "", "\(file) \(store): \(column)")
                }
                #expect(back["store"] == store)

                // The share link carries the same card to Catima.
                let link = try CardShare(access).link
                let shared = try CatimaShareLink.card(from: link)
                #expect(shared.cardID == original["cardid"] && shared.barcodeText == text)
                #expect(shared.headerColor == (original["headercolor"]).flatMap { Int32($0) })
                #expect((shared.barcodeEncoding ?? "") == (original["barcodeencoding"] ?? ""))
                checked += 1
            }
        }
        #expect(checked >= 5, "Catima's test exports hold five cards with a barcode")
    }

    @Test(
        "Käseschnitte, Catima's UTF-8 Aztec card: exported as UTF-8 and -5414233, as the file says",
        .enabled(if: Prerequisite.runs(FileManager.default.fileExists(atPath: folder + "/catima_v2.csv"))))
    func cheese() throws {
        let setup = try CatimaTransferTests.Setup()
        let access = try setup.access()
        let path = Self.folder + "/catima_v2.csv"
        let cards = try CardImport.cards(in: .file(path), password: try setup.password(nil), say: { _ in })
        let cheese = try CardImport.choose(from: cards, store: "cheese", list: { _ in }, ask: { _ in nil })
        _ = try CardImport.store(cheese, access: access, noPassphrase: true, say: { _ in })
        let record = try access.unlock().record
        #expect(record.encoding == .utf8 && record.catima?.headerColor == -5_414_233)
        #expect(try record.content().eciDesignator == 26)
        let exported = setup.directory.path + "/cheese.csv"
        _ = try CardExport.export(access, to: exported, format: .csv, password: nil, replacing: false)
        let text = String(decoding: try setup.bytes(exported), as: UTF8.self)
        #expect(text.contains(",Käseschnitte,,AZTEC,UTF-8,-5414233,0,0,0\r\n"))
    }
}

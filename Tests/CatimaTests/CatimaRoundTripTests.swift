import Catima
import Foundation
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

import struct Scanner.BarcodeScanner

/// The card you draw is the card every reader reads, through Catima (issue 38): a sample of the generated
/// space (``CardSpace``: six cards of each symbology, every encoding) exported as `gymcard export` writes
/// it and shared as `gymcard share --url` writes it, then read by the models of Catima's own importer and
/// link parser (``CatimaImporterModel``, ``CatimaLinkModel``): the card they give has the same type, text
/// and encoding, and the barcode drawn from it reads back with gymcard's scanner to the same text and
/// symbology.
@Suite("Every card, every reader: Catima's export and share link over a sample of the space")
struct CatimaRoundTripTests {
    static let sample: [BarcodeContent] = CardSpace.symbologies.flatMap { symbology in
        CardSpace.cards(symbology, count: 8).dropFirst(2).filter { !$0.isSaidNotToScan }.prefix(6)
            .compactMap { try? $0.content() }
    }

    /// The barcode a card Catima read stands for, and what gymcard's scanner reads in its drawing.
    static func readBack(type: String?, text: String, encoding: String?) throws -> (
        drawn: BarcodeContent, read: [BarcodeContent]
    ) {
        let symbology = try #require(type.flatMap(Symbology.init(catimaName:)))
        let drawn = try BarcodeContent(
            symbology: symbology, normalizing: text,
            encoding: encoding.flatMap(TextEncoding.init(catimaName:)))
        let image = MatrixRaster.image(
            of: try ModuleMatrix(encoding: drawn), style: try BarcodeStyle(narrowBarWidth: 3))
        let reads = BarcodeScanner().scan(image.grayImage).findings.compactMap {
            BarcodeContent(read: $0.symbology, text: $0.text)
        }
        return (drawn, reads)
    }

    static func expectSame(_ drawn: BarcodeContent, as content: BarcodeContent, _ context: String) {
        #expect(drawn.symbology == content.symbology, "\(context): type")
        #expect(Array(drawn.text.unicodeScalars) == Array(content.text.unicodeScalars), "\(context): text")
        #expect(
            drawn.bytes == content.bytes && drawn.eciDesignator == content.eciDesignator, "\(context): bytes")
    }

    @Test("the export, read as Catima's importer reads it, is the card, and its barcode reads back")
    func export() throws {
        #expect(Self.sample.count >= 60)
        for content in Self.sample {
            let card = CatimaCard(exporting: content, label: nil)
            let csv = try CatimaExport.bytes(for: card, format: .csv)
            let imported = try CatimaImporterModel.importCSV(csv)
            let theirs = try #require(imported.cards.first, "\(content.symbology.name): no card")
            let (drawn, reads) = try Self.readBack(
                type: theirs.barcodeType, text: theirs.barcodeID ?? theirs.cardID,
                encoding: theirs.barcodeEncoding)
            Self.expectSame(
                drawn, as: content, "export \(content.symbology.name) '\(content.text.prefix(30))'")
            #expect(
                reads.map(\.text) == [content.text],
                "export \(content.symbology.name): read \(reads.map(\.text))")
        }
    }

    @Test("the share link, parsed as Catima parses it, is the card, and its barcode reads back")
    func shareLink() throws {
        for content in Self.sample {
            let link = CatimaShareLink.link(for: CatimaCard(exporting: content, label: nil))
            guard case .card(let theirs, let damaged) = CatimaLinkModel.parse(link) else {
                Issue.record("\(content.symbology.name): Catima does not take the link")
                continue
            }
            #expect(!damaged)
            let (drawn, reads) = try Self.readBack(
                type: theirs.barcodeType, text: theirs.barcodeID ?? theirs.cardID,
                encoding: theirs.barcodeEncoding)
            Self.expectSame(drawn, as: content, "link \(content.symbology.name) '\(content.text.prefix(30))'")
            #expect(
                reads.map(\.text) == [content.text],
                "link \(content.symbology.name): read \(reads.map(\.text))")
        }
    }
}

import Foundation
import Imaging
import Symbologies
import TestSupport
import Testing

@testable import Scanner

/// The photo `generate-corpus --symbol datamatrix DM-CARD-9981 DIR 1 SEED CATEGORY` writes, decoded as
/// `gymcard scan` decodes it.
private func dataMatrixPhoto(seed: UInt64, category: String) async throws -> GrayImage {
    let content = try BarcodeContent(symbology: .datamatrix, normalizing: "DM-CARD-9981")
    let recipe = try #require(CardPhotoGenerator.fullRecipes.first { $0.category == category })
    return try await OffThePool.compute {
        let card = try CardPhotoGenerator.symbolCard(content)
        var generator = CardPhotoGenerator(seed: seed)
        _ = generator.photo(recipe, name: "\(category)-0")
        let bytes = generator.photograph(card, narrowBarPixels: 8, recipe: recipe)
        return try ImageFile.decodeGray(bytes, minimumLongSide: BarcodeScanner.decodeSide)
    }
}

@Suite("libdmtx, the Data Matrix engine after zxing-cpp")
struct DataMatrixReaderTests {
    /// Photos of a Data Matrix card, soft or turned, that neither libzbar nor zxing-cpp 1.4's looks read,
    /// and libdmtx does (found among seeds 200–211 of three categories, issue 39): each is read as its
    /// own text, by a libdmtx stage. Before libdmtx, gymcard read none of them.
    @Test(
        "a Data Matrix photo zxing-cpp misses is read by libdmtx",
        .enabled(if: Prerequisite.runs(DataMatrixReader.isAvailable), "libdmtx0b is needed"),
        arguments: [("defocus", 209), ("rotated", 207), ("rotated", 209)] as [(String, UInt64)])
    func readsWhatZXingMisses(_ category: String, _ seed: UInt64) async throws {
        let photo = try await dataMatrixPhoto(seed: seed, category: category)
        let report = await OffThePool.compute { BarcodeScanner().scan(photo) }
        #expect(report.findings.map(\.text) == ["DM-CARD-9981"], "\(category) seed \(seed)")
        #expect(report.findings.first?.stage.hasPrefix("dmtx") == true, "\(report.findings)")
        #expect(report.findings.first?.symbology == .datamatrix)
    }

    /// libdmtx alone, on images with no Data Matrix or too small for one: nothing read.
    @Test(
        "libdmtx reads nothing where there is no Data Matrix",
        .enabled(if: Prerequisite.runs(DataMatrixReader.isAvailable), "libdmtx0b is needed"))
    func nothingWithoutSymbol() throws {
        try #require(DataMatrixReader.isAvailable)
        var noise = GrayImage(width: 400, height: 300)
        var generator = SeededGenerator(seed: 7)
        for index in noise.pixels.indices {
            noise.pixels[index] = UInt8.random(in: 0...255, using: &generator)
        }
        #expect(DataMatrixReader().decode(noise).isEmpty)
        #expect(DataMatrixReader().decode(GrayImage(width: 1, height: 1)).isEmpty)
    }
}

@Suite("Data Matrix reads checked against their own error codewords")
struct DataMatrixCheckTests {
    /// The codewords libdmtx 0.7.7 returned for a tester's damaged JPEG of an 8×18 symbol holding `DM12345`
    /// (`BM04985`, exit 0 before the check), and those of the symbol as zint drew it.
    @Test("libdmtx's read of a damaged symbol is no codeword; the symbol as drawn is")
    func testersSymbol() {
        let drawn: [UInt8] = [69, 78, 142, 164, 54, 210, 98, 83, 186, 151, 210, 158]
        let damaged: [UInt8] = [67, 78, 134, 228, 54, 210, 34, 89, 186, 207, 211, 171]
        #expect(DataMatrixCheck.isCodeword(drawn, dataWords: 5, blocks: 1))
        #expect(!DataMatrixCheck.isCodeword(damaged, dataWords: 5, blocks: 1))
        for index in drawn.indices {
            var changed = drawn
            changed[index] ^= 0x10
            #expect(!DataMatrixCheck.isCodeword(changed, dataWords: 5, blocks: 1), "codeword \(index)")
        }
    }

    /// Square and rectangular sizes zint draws: libdmtx's read of the drawing passes the check, so the
    /// check's arithmetic is the symbol's. (The 40×40, 52×52, 80×80 and 88×88 drawn so are not found
    /// within the reader's bound of grid points; zxing-cpp reads them. The block order of interleaved
    /// ones, from 52×52, was checked on libdmtx's reads of zint's 52×52 and 88×88 with pylibdmtx:
    /// ARCHITECTURE §14.)
    @Test(
        "symbols of several sizes zint draws read through libdmtx and its check",
        .enabled(if: Prerequisite.runs(DataMatrixReader.isAvailable), "libdmtx0b is needed"),
        arguments: [1, 2, 3, 5, 8, 25, 27, 30])
    func everySize(version: Int) async throws {
        let home = try TemporaryDirectory()
        let path = home.path + "/symbol.png"
        let zint = try await ChildProcess.run(
            "/usr/bin/zint",
            ["-b", "DATAMATRIX", "--vers=\(version)", "--scale=3", "--quietzones", "-d", "AB", "-o", path])
        #expect(zint.status == 0, "\(zint.stderrText)")
        let image = try ImageFile.decodeGray(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))),
            minimumLongSide: BarcodeScanner.decodeSide)
        #expect(DataMatrixReader().decode(image).map(\.text) == ["AB"], "version \(version)")
        // A look ends at the scan's deadline or after its longest look (a runaway's bound: a damaged photo
        // full of blocky edges took 100 s a look): one already past reads nothing.
        #expect(DataMatrixReader().decode(image, until: ContinuousClock.now).isEmpty)
        #expect(DataMatrixReader(longestLook: .zero).decode(image).isEmpty)
    }
}

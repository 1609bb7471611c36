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

import Codabar
import Imaging
import Scanner
import TestSupport
import Testing

/// A modest seeded corpus through the whole path a photo takes: JPEG bytes → TurboJPEG → cascade.
/// 12 MP frames are reduced to 1600×1200 here to keep the suite fast; Benchmarks/scan.sh runs the full
/// corpus at full size against zbarimg and zxing-cpp.
@Suite("The seeded photo corpus")
struct CorpusTests {
    static let photos: [CardPhotoGenerator.Photo] = {
        var generator = CardPhotoGenerator(seed: 20_261_121)
        return generator.corpus(recipes: CardPhotoGenerator.testRecipes, perCategory: 2)
    }()

    @Test("every clean and moderately degraded photo reads its ID; none reads a wrong one", arguments: photos)
    func corpus(_ photo: CardPhotoGenerator.Photo) async throws {
        let report = try await OffThePool.compute {
            let image = try ImageFile.decodeGray(photo.bytes, minimumLongSide: BarcodeScanner.decodeSide)
            return BarcodeScanner(timeBudget: .seconds(30)).scan(image) {
                try? ImageFile.decodeGray(photo.bytes)
            }
        }
        let ids = report.findings.compactMap { try? CodabarSymbol(normalizing: $0.text).text }
        if let expected = photo.expectedID {
            #expect(ids.allSatisfy { $0 == expected }, "\(photo.name) misread as \(ids)")
            if photo.mustRead { #expect(ids.first == expected, "\(photo.name) not read") }
        } else {
            #expect(ids.isEmpty, "\(photo.name) has no barcode but read \(ids)")
            #expect(report.diagnosis != nil)
        }
    }
}

extension CardPhotoGenerator.Photo: CustomTestStringConvertible {
    /// The photo's file name.
    public var testDescription: String { name }
}

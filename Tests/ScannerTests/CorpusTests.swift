import Codabar
import Imaging
import Scanner
import TestSupport
import Testing

/// A modest seeded corpus through the whole path a photo takes: JPEG bytes → TurboJPEG → cascade.
/// 12 MP frames are reduced to 1600×1200 here to keep the suite fast; Benchmarks/scan.sh runs the full
/// corpus at full size against zbarimg and zxing-cpp.
/// One generated photo through the whole cascade (bounded by work, so a loaded CI machine runs the same
/// stages), off the concurrency pool.
private func scanGenerously(_ photo: CardPhotoGenerator.Photo) async throws -> ScanReport {
    try await OffThePool.compute {
        BarcodeScanner().scan(
            try ImageFile.decodeGray(photo.bytes, minimumLongSide: BarcodeScanner.decodeSide))
    }
}

/// The names of a seed's first `count` photos of `category` whose first finding came from a stage
/// `stage` accepts, each confirmed by two stages; every finding of every photo must be its own ID.
private func readThrough(
    seed: UInt64, category: String, count: Int, stage: @escaping (String) -> Bool
) async throws -> [String] {
    var generator = CardPhotoGenerator(seed: seed)
    let recipe = try #require(CardPhotoGenerator.fullRecipes.first { $0.category == category })
    var names: [String] = []
    for index in 0..<count {
        let photo = generator.photo(recipe, name: "\(category)-\(index)")
        let report = try await scanGenerously(photo)
        let ids = report.findings.compactMap { try? CodabarSymbol(normalizing: $0.text).text }
        #expect(ids.allSatisfy { $0 == photo.expectedID }, "\(photo.name) misread as \(ids)")
        if let finding = report.findings.first, stage(finding.stage) {
            #expect(finding.confirmations >= 2)
            names.append(photo.name)
        }
    }
    return names
}

/// Photo `index` of a seed's photos of one category (also `generate-corpus DIR COUNT SEED CATEGORY`),
/// made off the concurrency pool.
private func generatedPhoto(seed: UInt64, category: String, index: Int) async throws
    -> CardPhotoGenerator.Photo
{
    try await OffThePool.compute {
        var generator = CardPhotoGenerator(seed: seed)
        let recipe = try #require(CardPhotoGenerator.fullRecipes.first { $0.category == category })
        return (0...index).map { generator.photo(recipe, name: "\(category)-\($0)") }[index]
    }
}

/// Scans a generated photo through the whole cascade and expects its own ID, and nothing else.
private func expectOwnID(_ photo: CardPhotoGenerator.Photo) async throws {
    let report = try await scanGenerously(photo)
    let ids = report.findings.compactMap { try? CodabarSymbol(normalizing: $0.text).text }
    #expect(ids == [photo.expectedID].compactMap { $0 }, "\(photo.name) read as \(ids)")
}

@Suite("The seeded photo corpus")
struct CorpusTests {
    /// The photos' names, known without making them: Swift Testing evaluates a test's arguments while it
    /// plans the run, on the concurrency pool, so making the photos there held every suite up for minutes
    /// on a loaded machine.
    static let names: [String] = CardPhotoGenerator.testRecipes.flatMap { recipe in
        (0..<perCategory).map { "\(recipe.category)-\($0).jpg" }
    }
    static let perCategory = 2

    /// The photos, made once, on a thread of their own, when the first test asks.
    static let photos = Task {
        await OffThePool.compute {
            var generator = CardPhotoGenerator(seed: 20_261_121)
            return generator.corpus(recipes: CardPhotoGenerator.testRecipes, perCategory: perCategory)
        }
    }

    @Test("every clean and moderately degraded photo reads its ID; none reads a wrong one", arguments: names)
    func corpus(_ name: String) async throws {
        let photo = try #require(await Self.photos.value.first { $0.name == name })
        let report = try await OffThePool.compute {
            let image = try ImageFile.decodeGray(photo.bytes, minimumLongSide: BarcodeScanner.decodeSide)
            return BarcodeScanner().scan(image) {
                try? ImageFile.decodeGray(photo.bytes)
            }
        }
        let ids = report.findings.compactMap { try? CodabarSymbol(normalizing: $0.text).text }
        if let expected = photo.expectedID {
            #expect(ids.allSatisfy { $0 == expected }, "\(photo.name) misread as \(ids)")
            if photo.mustRead {
                #expect(ids.first == expected, "\(photo.name) not read")
            }
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

@Suite("Bars of about a pixel")
struct ThinBarsTests {
    /// Narrow bars of 0.8–1.5 px, which zbar cannot separate as they are. The best region cut upright
    /// and stretched across with a Lanczos kernel reads some, each confirmed by two stretch factors, and
    /// never a wrong ID. Seed 9's first four thin-bars photos (also `generate-corpus DIR 4 9 thin-bars`):
    /// the second and third read so; before the stretch, none did.
    @Test("thin bars: read through the sharply stretched crop, confirmed by two factors, never misread")
    func thinBars() async throws {
        let stretched = try await readThrough(seed: 9, category: "thin-bars", count: 4) {
            $0.hasPrefix("locate 1 ") && $0.hasSuffix("x") && !$0.contains("fine") && !$0.contains("sharp")
        }
        #expect(stretched == ["thin-bars-1.jpg", "thin-bars-2.jpg"])
    }
}

@Suite("Labels on a printed page")
struct LabelOnPageTests {
    /// A label tilted on a page of text: the text blocks are strong too, so four times the median block's
    /// energy shut the label's bars out and the locator found nothing. Seed 11's first four label photos
    /// (also `generate-corpus DIR 4 11 label`) are each found and read at the first located region.
    @Test("a label on a printed page is located and read from its upright crop")
    func labelOnPage() async throws {
        var generator = CardPhotoGenerator(seed: 11)
        let recipe = try #require(CardPhotoGenerator.fullRecipes.first { $0.category == "label" })
        for index in 0..<4 {
            let photo = generator.photo(recipe, name: "label-\(index)")
            let report = try await scanGenerously(photo)
            let ids = report.findings.compactMap { try? CodabarSymbol(normalizing: $0.text).text }
            #expect(ids.first == photo.expectedID, "\(photo.name) read as \(ids)")
            #expect(report.findings.first?.stage == "locate 1", "\(photo.name)")
        }
    }
}

@Suite("Soft bars")
struct SoftBarsTests {
    /// A defocused card (a disk point-spread) whose bars no plain, blurred, located or stretched stage
    /// could read: unsharp masking restores their edges. Seed 5's first two defocus photos (also
    /// `generate-corpus DIR 2 5 defocus`): the second reads only so, confirmed by two sharpened stages.
    @Test("defocus: read through unsharp masking, confirmed by two stages, never misread")
    func defocus() async throws {
        let sharpened = try await readThrough(seed: 5, category: "defocus", count: 2) { $0.contains("sharp") }
        #expect(sharpened == ["defocus-1.jpg"])
    }
}

@Suite("Bars cut finer than the photo's pixels")
struct FineCropTests {
    /// Bars of about a pixel that neither the upright crop, its Lanczos stretch nor sharpening read: the
    /// region cut out two or three times finer than the photo's pixels, sampled with a Lanczos kernel, does.
    /// Seed 2's third thin-bars photo (also `generate-corpus DIR 3 2 thin-bars`) reads so first, confirmed
    /// by a second stage. (Seed 3's first read so until the locator searched a photo no larger than the
    /// working image unblurred; it now reads from the region's own cuts, earlier.)
    @Test("thin bars: read from a finer Lanczos cut, confirmed by two stages, never misread")
    func fineCut() async throws {
        let fine = try await readThrough(seed: 2, category: "thin-bars", count: 3) {
            $0.hasPrefix("locate 1 fine")
        }
        #expect(fine == ["thin-bars-2.jpg"])
    }
}

@Suite("A soft symbol found in pieces")
struct JoinedPiecesTests {
    /// A block inside a wide space of a soft symbol has too little energy to count, so the locator found
    /// seed 2's first thin-bars photo (also `generate-corpus DIR 1 2 thin-bars`) as pieces, none with both
    /// ends, and nothing read it. Joined, the whole symbol's crop stretched reads, confirmed twice.
    @Test("thin bars: the pieces of one symbol are joined into one region, which reads")
    func joined() async throws {
        let located = try await readThrough(seed: 2, category: "thin-bars", count: 1) {
            $0.hasPrefix("locate 1")
        }
        #expect(located == ["thin-bars-0.jpg"])
    }
}

@Suite("Dark photos")
struct DarkPhotoTests {
    /// A dark photo's rows across the symbol have little contrast and much noise: turns of a tenth of
    /// their contrast split its bars and broke up its quiet zones, so no row carried the symbol and the
    /// footprint guard refused true reads. The row's own noise now sets how far it must turn. Seed 2026's
    /// fifth low-light photo (also `generate-corpus DIR 5 2026 low-light`) read nothing before; it reads
    /// its own ID.
    @Test("low light: the read of the whole symbol stands although the rows are noisy")
    func lowLight() async throws {
        try await expectOwnID(try await generatedPhoto(seed: 2026, category: "low-light", index: 4))
    }
}

@Suite("A tiny scan")
struct TinyScanTests {
    /// A small, nearly upright label with narrow bars of 1 to 1.4 px: most bar edges fall inside a pixel,
    /// so every scan line sees grey where a narrow bar and space alternate, and the locator can find the
    /// symbol in pieces. The whole image stretched across two and three times with a Lanczos kernel reads
    /// it. Seed 5's first four tiny-scan photos (also `generate-corpus DIR 4 5 tiny-scan`): the third and
    /// the fourth read so first, confirmed by both factors.
    @Test("tiny scan: read through the whole image stretched across, confirmed by two factors, never misread")
    func tinyScan() async throws {
        let stretched = try await readThrough(seed: 5, category: "tiny-scan", count: 4) {
            $0.hasPrefix("stretch")
        }
        #expect(stretched == ["tiny-scan-2.jpg", "tiny-scan-3.jpg"])
    }
}

@Suite("A small photo located as it is")
struct UnblurredLocatorTests {
    /// A photo no larger than the working image is searched for bars unblurred: blurred, the narrow runs of
    /// bars about a pixel wide lost their gradient energy and the symbol was found in pieces that no crop
    /// read. Seed 3's third tiny-scan photo (also `generate-corpus DIR 3 3 tiny-scan`) is located so, and
    /// its region's finer cuts read it; but since the footprint guard's loosenings were taken back
    /// (19c12df) the guard refuses that read, so the photo reads nothing: a known issue, which fails this
    /// test once it reads again. What holds now: none of the three photos is misread.
    @Test("a tiny scan whose blurred copy hides its bars is never misread; its refused read is a known issue")
    func unblurred() async throws {
        let located = try await readThrough(seed: 3, category: "tiny-scan", count: 3) {
            $0.hasPrefix("locate 1")
        }
        withKnownIssue(
            "the footprint guard refuses this read: only finer cuts read it, with 7 of 23 rows agreeing and 14 holding about as many elements (ARCHITECTURE §5)"
        ) {
            #expect(located.contains("tiny-scan-2.jpg"))
        }
    }
}

@Suite("A character the finer cuts invent")
struct InventedCharacterTests {
    /// Seed 6's first defocus photo (also `generate-corpus DIR 1 6 defocus`) reads `A740158121B` as it is;
    /// its region cut two and three times finer read `A7401:8121B`, every row of both cuts agreeing, and
    /// `scan --all` listed both.
    @Test("scan --all lists the ID the photo shows, not one its finer cuts invent")
    func invented() async throws {
        let photo = try await generatedPhoto(seed: 6, category: "defocus", index: 0)
        let report = try await OffThePool.compute {
            BarcodeScanner().scan(
                try ImageFile.decodeGray(photo.bytes, minimumLongSide: BarcodeScanner.decodeSide),
                findAll: true)
        }
        #expect(report.findings.map(\.text) == ["A740158121B"])
        #expect(photo.expectedID == "A740158121B")
    }
}

import Codabar
import Foundation
import Imaging
import Symbologies
import TestSupport
import Testing

@testable import Scanner

/// Copies of a JPEG with 1 to 6 bytes of its compressed picture data changed, as a bad SD card, a cut
/// download or a broken transfer leaves them: the decoder loses step and the lower part of the picture
/// comes out shifted sideways, like a torn card. The same copies as `SPLITMIX=1 Benchmarks/damaged.sh`
/// (SplitMix64 from `seed`: the number of bytes, then each byte's offset past the start-of-scan header and
/// the amount added to it).
func damagedCopies(of bytes: [UInt8], seed: UInt64, count: Int) throws -> [[UInt8]] {
    var index = 2
    var start: Int?
    while start == nil, index + 4 <= bytes.count {
        try #require(bytes[index] == 0xFF, "no JPEG marker at \(index)")
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        if bytes[index + 1] == 0xDA { start = index + 2 + length }
        index += 2 + length
    }
    let dataStart = try #require(start, "no start of scan")
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
        var copy = bytes
        for _ in 0..<1 + generator.next() % 6 {
            let offset = dataStart + Int(generator.next() % UInt64(bytes.count - 2 - dataStart))
            copy[offset] &+= UInt8(1 + generator.next() % 255)
        }
        return copy
    }
}

@Suite("Damaged photos")
struct DamagedPhotoTests {
    /// Scan lines that cross the tear read valid symbols with characters dropped, and zbar's neighbouring
    /// lines, a second stage, and zxing-cpp reading the same crop agree with them. Before the footprint
    /// check, copy 11 of seed 2 read `C12-34:678/90D` through "locate 1" (exit 0; so did copy 64, and copy
    /// 36 of seed 1 read `C12-345678/90D`). Each copy must read its ID or nothing. Only the cascade's first
    /// stages run (plain, blur, the two located regions: where those misreads came from), and only 24
    /// copies, so that the test stays affordable in a debug build (about a second of CPU a copy);
    /// Benchmarks/damaged.sh runs the whole cascade on hundreds.
    @Test(
        "a photo with 1-6 bytes changed past its header reads its own ID or nothing, never another",
        arguments: [("card-rotated.jpg", "C12-345:678/90D", 2 as UInt64, 24)])
    func damaged(file: String, expected: String, seed: UInt64, count: Int) async throws {
        let path = GymcardProcess.packageRoot.appendingPathComponent("samples/" + file).path
        let copies = try damagedCopies(
            of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), seed: seed, count: count)
        let outcomes = await OffThePool.compute { () -> [[String]] in
            copies.map { copy in
                guard let image = try? ImageFile.decodeGray(copy, minimumLongSide: BarcodeScanner.decodeSide)
                else { return [] }
                var scanner = BarcodeScanner()
                scanner.stageLimit = 4
                return scanner.scan(image).findings.map(\.text)
            }
        }
        for (index, texts) in outcomes.enumerated() {
            #expect(texts.allSatisfy { $0 == expected }, "copy \(index) of seed \(seed) read \(texts)")
        }
        // Not a test that passes by reading nothing: damage spares most copies' symbol.
        #expect(outcomes.filter { $0 == [expected] }.count >= count / 3, "\(outcomes)")
    }
}

/// A UPC-A card's photo damaged so that its bars come out lighter and thinner all the way down: every scan
/// line of the symbol shows the same wrong widths, so no footprint can tell. The photo is
/// `generate-corpus --symbol upca 066721017185 DIR 1 39`'s `thin-bars-0.jpg` (the generator run through
/// every recipe before it, as the benchmark's corpus is made), with the six bytes that
/// `DAMAGED_COPIES=2 Benchmarks/symbologies.sh 1 39` changed in its copy 1 of damage seed 1.
@Suite("A damaged UPC-A photo whose every line reads two 1s and 7s swapped")
struct DamagedUPCPhotoTests {
    static let changes: [(offset: Int, added: UInt8)] = [
        (13503, 8), (15183, 229), (15527, 120), (33294, 182), (34295, 20), (49973, 187),
    ]

    /// The cuts of the located region, enlarged and cut finer (aggressive stages all), read it as
    /// `066121077185` (valid: the two swaps cancel in the check digit) on 136 lines, the true text on 34;
    /// zxing-cpp reads the true text. Before issue 39's rule that aggressive stages confirm no EAN or UPC
    /// read among themselves, gymcard printed the wrong one with exit 0.
    @Test("read as its own ID or not at all")
    func swappedDigits() async throws {
        let content = try BarcodeContent(symbology: .upca, normalizing: "066721017185")
        let photo = try await OffThePool.compute { () throws -> [UInt8] in
            let card = try CardPhotoGenerator.symbolCard(content)
            var generator = CardPhotoGenerator(seed: 39)
            for recipe in CardPhotoGenerator.fullRecipes where recipe.hasBarcode && !recipe.label {
                _ = generator.photo(recipe, name: "\(recipe.category)-0")
                let bytes = generator.photograph(card, narrowBarPixels: 8, recipe: recipe)
                if recipe.category == "thin-bars" { return bytes }
            }
            return []
        }
        try #require(photo.count == 52_930, "generate-corpus's photo has changed: find another damaged copy")
        var damaged = photo
        for change in Self.changes { damaged[change.offset] &+= change.added }
        let image = try ImageFile.decodeGray(damaged, minimumLongSide: BarcodeScanner.decodeSide)
        let report = await OffThePool.compute { BarcodeScanner().scan(image) }
        #expect(report.findings.allSatisfy { $0.text == "066721017185" }, "\(report.findings.map(\.text))")
    }
}

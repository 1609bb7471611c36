import Codabar
import Foundation
import Imaging
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

import CZXing
import Codabar
import Foundation
import Glibc
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

@testable import Scanner

/// A rendered symbol with a white margin around it.
private func rendered(_ id: String, narrowBarWidth: Int = 2, margin: Int = 40) throws -> GrayImage {
    let bars = CodabarRaster.image(
        of: try CodabarSymbol(normalizing: id),
        style: try BarcodeStyle(narrowBarWidth: narrowBarWidth, barHeight: 30)
    ).grayImage
    var image = GrayImage(width: bars.width + 2 * margin, height: bars.height + 2 * margin)
    for y in 0..<bars.height { for x in 0..<bars.width { image[margin + x, margin + y] = bars[x, y] } }
    return image
}

/// Random vertical stripes in a band: bar-like enough for the locator, but no symbol.
private func stripes(width: Int = 640, height: Int = 480, seed: UInt64 = 14) -> GrayImage {
    var image = GrayImage(width: width, height: height)
    var generator = SeededGenerator(seed: seed)
    var dark = false
    var nextEdge = width / 3
    for x in 0..<width {
        if x == nextEdge, x < 2 * width / 3 {
            dark.toggle()
            nextEdge += Int.random(in: 3...9, using: &generator)
        }
        for y in height / 3..<2 * height / 3 where dark && x < 2 * width / 3 { image[x, y] = 30 }
    }
    return image
}

@Suite("zxing-cpp, the second engine")
struct ZXingReaderTests {
    @Test("reads a rendered Codabar with its start and stop letters, where it lies")
    func readsRendered() throws {
        try #require(ZXingReader.isAvailable, "gymcard-zxing (swift build) and libzxing2 are needed")
        let image = try rendered("C12-345:678D")
        let found = ZXingReader().decode(image)
        let read = try #require(found.first)
        #expect(found.count == 1)
        #expect(read.symbol.symbology == .codabar)
        #expect(read.symbol.text == "C12-345:678D")
        #expect(read.symbol.quality >= 2, "scan lines that agreed")
        // The symbol starts after the 40 px margin and its 20 px quiet zone.
        let left = try #require(read.corners.map(\.x).min())
        let right = try #require(read.corners.map(\.x).max())
        #expect(abs(left - 60) <= 2 && abs(right - (image.width - 60)) <= 2, "\(read.corners)")
        #expect(ZXingReader.version == "1.4.0")
    }

    @Test("a helper killed while idle is replaced: the next read starts another and reads")
    func helperKilledWhileIdle() throws {
        // A pool of the test's own: the shared one serves the other suites' reads meanwhile.
        let path = try #require(ZXingHelper.candidatePaths().first { access($0, X_OK) == 0 })
        let helper = try #require(ZXingHelper(path: path))
        let image = try rendered("C12-345:678D")
        func read() -> [String] {
            var results = [gymcard_zxing_result](repeating: gymcard_zxing_result(), count: 4)
            let count = image.pixels.withUnsafeBufferPointer { luma in
                results.withUnsafeMutableBufferPointer { output in
                    helper.read(
                        luma: luma, width: Int32(image.width), height: Int32(image.height),
                        rowStride: Int32(image.width), formats: Int32(GYMCARD_ZXING_CODABAR), tryHarder: true,
                        into: output)
                }
            }
            return results.prefix(Int(max(0, count))).map { result in
                var result = result
                return withUnsafeBytes(of: &result.text) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
            }
        }
        #expect(read() == ["C12-345:678D"])
        let killed = helper.idleProcessIDs
        try #require(killed.count == 1)
        for processID in killed { kill(processID, SIGKILL) }
        // Until the kernel has ended it (it is not reaped: the pool does that).
        for processID in killed {
            var information = siginfo_t()
            while waitid(P_PID, id_t(processID), &information, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        }
        #expect(read() == ["C12-345:678D"])
        #expect(helper.idleProcessIDs.count == 1)
        #expect(Set(helper.idleProcessIDs).isDisjoint(with: killed))
    }

    @Test(
        "a program in the helper's place that is no helper of this build is given up in seconds, not waited for"
    )
    func notAHelper() throws {
        let directory = try TemporaryDirectory()
        for (name, script) in [
            ("greets-wrong", "#!/bin/sh\necho hello\nsleep 30\n"), ("silent", "#!/bin/sh\nsleep 30\n"),
            ("exits", "#!/bin/sh\nexit 3\n"),
        ] {
            let path = directory.path + "/" + name
            try Data(script.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
            let clock = ContinuousClock()
            let started = clock.now
            #expect(ZXingHelper(path: path) == nil, "\(name)")
            #expect(clock.now - started < .seconds(10), "\(name)")
        }
    }

    @Test("reads from four threads at once each get a helper and their own symbol")
    func concurrentReads() async throws {
        try #require(ZXingReader.isAvailable)
        let ids = ["A905123456B", "C12-345:678D", "B1234B", "D77-0042C"]
        let images = try ids.map { try rendered($0) }
        let reads = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for (index, image) in images.enumerated() {
                group.addTask {
                    try await OffThePool.run { (index, ZXingReader().decode(image).map(\.symbol.text)) }
                }
            }
            var reads = [[String]](repeating: [], count: images.count)
            for try await (index, read) in group { reads[index] = read }
            return reads
        }
        #expect(reads == ids.map { [$0] })
    }

    @Test("a large photo with a symbol reads without aborting (Debian's build asserts when it merges passes)")
    func largePhoto() throws {
        try #require(ZXingReader.isAvailable)
        let image = try photo(of: "C12-345:678D", canvas: 1200)
        #expect(ZXingReader().decode(image).map(\.symbol.text) == ["C12-345:678D"])
    }

    @Test("an image it cannot read gives nothing", arguments: [0, 1, 2])
    func unreadable(kind: Int) throws {
        try #require(ZXingReader.isAvailable)
        let image: GrayImage
        switch kind {
        case 0: image = GrayImage(width: 300, height: 200, filledWith: 235)
        case 1: image = stripes()
        default:
            // A real symbol with its middle wiped out.
            var cut = try rendered("A905123456B")
            for y in 0..<cut.height { for x in cut.width / 2 - 20..<cut.width / 2 + 20 { cut[x, y] = 255 } }
            image = cut
        }
        #expect(ZXingReader().decode(image).isEmpty)
    }

    @Test(
        "a buffer that does not hold the image it claims is refused before zxing-cpp reads it",
        arguments: [
            (count: 199, width: 20, height: 10, stride: 20),  // a byte short
            (count: 200, width: 20, height: 10, stride: 19),  // rows overlap
            (count: 200, width: 21, height: 10, stride: 21),  // wider than the buffer
            (count: 200, width: 0, height: 10, stride: 20),
            (count: 200, width: 20, height: -1, stride: 20),
            (count: 0, width: 1, height: 1, stride: 1),
        ])
    func malformed(count: Int, width: Int, height: Int, stride: Int) throws {
        try #require(ZXingReader.isAvailable)
        let luma = [UInt8](repeating: 255, count: count)
        #expect(
            throws: ZXingError.badImage(width: width, height: height, rowStride: stride, byteCount: count)
        ) {
            try ZXingReader().decode(luma: luma, width: width, height: height, rowStride: stride)
        }
    }

    @Test("a row stride wider than the width is honoured: the padding is not read")
    func rowStride() throws {
        try #require(ZXingReader.isAvailable)
        let image = try rendered("A905123456B")
        // Each row followed by 7 bytes of black; the last row needs no padding.
        var padded: [UInt8] = []
        for y in 0..<image.height {
            padded += image.pixels[y * image.width..<(y + 1) * image.width]
            if y < image.height - 1 { padded += [UInt8](repeating: 0, count: 7) }
        }
        let found = try ZXingReader().decode(
            luma: padded, width: image.width, height: image.height, rowStride: image.width + 7)
        #expect(found.map(\.symbol.text) == ["A905123456B"])
    }
}

@Suite("The two engines in the cascade")
struct EngineOrderTests {
    @Test("libzbar reads first: a photo it reads never reaches zxing-cpp")
    func zbarFirst() async throws {
        let image = try photo(of: "905123456")
        let report = await OffThePool.compute { BarcodeScanner().scan(image) }
        #expect(report.stagesRun == ["plain"])
        #expect(report.findings.map(\.stage) == ["plain"])
    }

    @Test(
        "zxing-cpp's and libdmtx's stages come after every libzbar stage, and still run when the budget is spent"
    )
    func zxingLast() async throws {
        try #require(ZXingReader.isAvailable)
        try #require(DataMatrixReader.isAvailable)
        let image = stripes()
        let scanner = BarcodeScanner(workingSide: 300)
        let (whole, hurried) = await OffThePool.compute {
            (scanner.scan(image), BarcodeScanner(timeBudget: .zero, workingSide: 300).scan(image))
        }
        #expect(whole.findings.isEmpty)
        let second = whole.stagesRun.filter { $0.hasPrefix("zxing") || $0.hasPrefix("dmtx") }
        #expect(
            second == [
                "zxing locate 1", "zxing plain", "zxing blur", "zxing 2x", "zxing inverted", "dmtx",
                "dmtx large",
            ],
            "\(whole.stagesRun)")
        #expect(Array(whole.stagesRun.suffix(second.count)) == second)
        #expect(whole.stagesRun.count > 20, "every libzbar stage ran first")
        #expect(hurried.stagesRun == ["plain"] + second)
    }

    @Test(
        "with findAll zxing-cpp and libdmtx read too, after every libzbar stage, and find the same one symbol"
    )
    func findAll() async throws {
        try #require(ZXingReader.isAvailable)
        // A photo (grey levels: JPEG-like noise over the drawing), whose zxing-cpp stages come last.
        var grey = try rendered("A905123456B")
        for index in grey.pixels.indices { grey.pixels[index] = grey.pixels[index] == 0 ? 20 : 235 }
        let image = grey
        let report = await OffThePool.compute {
            BarcodeScanner().scan(image, findAll: true)
        }
        #expect(report.findings.map(\.text) == ["A905123456B"])
        #expect(report.findings.first?.stage == "plain")
        let second = report.stagesRun.filter { $0.hasPrefix("zxing") || $0.hasPrefix("dmtx") }
        #expect(!second.isEmpty && Array(report.stagesRun.suffix(second.count)) == second)
    }

    @Test("a drawing (black and white only) gets zxing-cpp's gentle looks right after libzbar's first")
    func drawingEarly() async throws {
        try #require(ZXingReader.isAvailable)
        let image = try rendered("A905123456B")
        let report = await OffThePool.compute { BarcodeScanner().scan(image, findAll: true) }
        #expect(report.findings.map(\.text) == ["A905123456B"])
        #expect(Array(report.stagesRun.prefix(2)) == ["plain", "zxing plain"], "\(report.stagesRun)")
    }
}

@Suite("The misread guard and the two engines")
struct EngineAgreementTests {
    func read(_ text: String, stage: String, engine: DecodingEngine, quality: Int = 1) -> StageRead {
        StageRead(
            stage: stage, isAggressive: true,
            symbol: DecodedSymbol(symbology: .codabar, text: text, quality: quality),
            engine: engine)
    }

    @Test("the two engines agreeing on one image confirm a read neither would stand on alone")
    func agreement() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("C12-3+5-/78D", stage: "locate 1", engine: .zbar)) == nil)
        #expect(readGuard.record(read("C12-3+5-/78D", stage: "locate 1", engine: .zbar)) == nil)
        #expect(readGuard.record(read("C12-3+5-/78D", stage: "locate 1", engine: .zxing)) != nil)
        #expect(readGuard.trustedTexts == ["C12-3+5-/78D"])
    }

    @Test("a zxing-cpp read never stands alone, on however many scan lines; a second stage confirms it")
    func zxingAlone() {
        var readGuard = ReadGuard()
        let gentle = StageRead(
            stage: "zxing locate 1", isAggressive: false,
            symbol: DecodedSymbol(symbology: .codabar, text: "A31117013206375A", quality: 9), engine: .zxing)
        #expect(readGuard.record(gentle) == nil)
        var turned = gentle
        turned.stage = "zxing turned"
        #expect(readGuard.record(turned) != nil)
    }

    @Test("the engines disagreeing confirm neither text")
    func disagreement() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("C12-3+5-/78D", stage: "locate 1", engine: .zbar)) == nil)
        #expect(readGuard.record(read("C12-345-678D", stage: "locate 1", engine: .zxing)) == nil)
        #expect(readGuard.trustedTexts.isEmpty)
        #expect(readGuard.untrustedCount == 2)
    }

    @Test("a zxing-cpp read goes through the guard like a libzbar read: malformed text is dropped")
    func guarded() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("A12A3B", stage: "zxing locate 1", engine: .zxing, quality: 5)) == nil)
        #expect(readGuard.untrustedCount == 0)
    }
}

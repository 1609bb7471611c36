import Dispatch
import Foundation
import Glibc
import Imaging
import Synchronization
import TestSupport
import Testing

@testable import Scanner

@Suite("The cascade's warm-up")
struct CascadeWarmUpTests {
    @Test("a lazy value asked for from many threads at once is made once, and all of them get it")
    func lazyOnce() {
        let makes = Atomic(0)
        let lazy = Lazy { () -> [Int] in
            makes.add(1, ordering: .relaxed)
            usleep(20_000)
            return Array(0..<1000)
        }
        let seen = Mutex([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let count = lazy.value.count
            seen.withLock { $0.append(count) }
        }
        #expect(makes.load(ordering: .relaxed) == 1)
        #expect(seen.withLock { $0 } == Array(repeating: 1000, count: 8))
    }

    @Test(
        "a photo gives the same findings, from the same stages, with the warm-up on another core and without",
        arguments: [56.0, 123])
    func sameWithWarmUp(degrees: Double) async throws {
        let image = try photo(of: "905123456", degrees: degrees)
        // Blank but for noise: every stage runs, and the warm-up's values are used by all that need them.
        var state: UInt64 = 1
        let blank = GrayImage(
            width: 400, height: 300,
            pixels: (0..<120_000).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return 200 &+ UInt8(truncatingIfNeeded: state >> 61)
            })
        for photo in [image, blank] {
            let (warm, cold) = await OffThePool.compute { () -> (ScanReport, ScanReport) in
                var without = BarcodeScanner()
                without.warmsUp = false
                return (BarcodeScanner().scan(photo, findAll: true), without.scan(photo, findAll: true))
            }
            #expect(warm.findings == cold.findings)
            #expect(warm.stagesRun == cold.stagesRun)
            #expect(warm.diagnosis == cold.diagnosis)
        }
    }

    /// Photos as users bring them: the samples (a colour phone photo turned, a webcam frame), decoded as
    /// `scan` decodes them.
    static let photoFiles = ["samples/card-rotated.jpg", "samples/card-webcam.jpg"].map {
        GymcardProcess.packageRoot.appendingPathComponent($0).path
    }

    /// A phone photo others took (../shared/realworld, absent outside this workspace).
    static let realPhoto = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/codabar-photos/other-scenes/library-label-phone.jpg").path

    @Test(
        "a photo file reads the same, from the same stages, with the warm-up and without",
        arguments: photoFiles)
    func sameOnPhotoFiles(path: String) async throws {
        try await Self.readsTheSame(path)
    }

    @Test(
        "a real phone photo reads the same, from the same stages, with the warm-up and without",
        .enabled(
            if: Prerequisite.runs(FileManager.default.fileExists(atPath: realPhoto)),
            "../shared/realworld/codabar-photos is not beside the package"))
    func sameOnRealPhoto() async throws {
        try await Self.readsTheSame(Self.realPhoto)
    }

    /// Scans the photo at `path` with the warm-up and without: it reads, the same, from the same stages.
    static func readsTheSame(_ path: String) async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let photo = try ImageFile.decodeGray(bytes, minimumLongSide: BarcodeScanner.decodeSide)
        let (warm, cold) = await OffThePool.compute { () -> (ScanReport, ScanReport) in
            let full = {
                try? ImageFile.decodeGray(bytes, minimumLongSide: BarcodeScanner.fullResolutionSide)
            }
            var without = BarcodeScanner()
            without.warmsUp = false
            return (
                BarcodeScanner().scan(photo, fullResolution: full), without.scan(photo, fullResolution: full)
            )
        }
        #expect(!warm.findings.isEmpty, "\(path) reads")
        #expect(warm.findings == cold.findings)
        #expect(warm.stagesRun == cold.stagesRun)
    }
}

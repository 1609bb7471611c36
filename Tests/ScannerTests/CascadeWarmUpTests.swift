import Dispatch
import Glibc
import Imaging
import Synchronization
import TestSupport
import Testing

@testable import Scanner

@Suite("The cascade's warm-up and the footprint's order statistics")
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

    @Test("the rank-th smallest equals the sorted array's, with ties, at every rank")
    func orderStatistic() {
        var state: UInt64 = 9
        for count in [1, 2, 3, 8, 31, 200] {
            for spread in [2, 50, 100_000] {
                let values = (0..<count).map { _ -> Double in
                    state = state &* 6_364_136_223_846_793_005 &+ 1
                    return Double(Int(state >> 33) % spread) / 4 - 3
                }
                let sorted = values.sorted()
                for rank in 0..<count {
                    var scratch = values
                    #expect(RowReading.orderStatistic(rank, of: &scratch) == sorted[rank])
                }
            }
        }
    }
}

import Testing

@testable import Scanner

@Suite("Order statistics by selection")
struct OrderStatisticTests {
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
                    #expect(scratch.orderStatistic(rank) == sorted[rank])
                }
            }
        }
    }
}

import Foundation
import Occupancy
import OpeningHours
import Testing

@Suite("wait: below the line, and staying below it for the whole --for")
struct ThresholdWaitTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let open = OpeningState.open(closesAt: nil)

    func reading(_ people: Int, of capacity: Int = 600) -> OccupancyReading {
        OccupancyReading(occupancy: people, capacity: capacity)
    }

    func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    @Test("percent and people thresholds compare strictly below")
    func thresholds() {
        let percent = WaitCondition(threshold: .percent(30), holdSeconds: 0)
        #expect(percent.isBelow(reading(179)))
        #expect(!percent.isBelow(reading(180)))
        #expect(!percent.isBelow(OccupancyReading(occupancy: 0, capacity: 0)))
        let people = WaitCondition(threshold: .people(120), holdSeconds: 0)
        #expect(people.isBelow(reading(119)))
        #expect(!people.isBelow(reading(120)))
        #expect(percent.thresholdText == "30%")
        #expect(people.thresholdText == "120 people")
    }

    @Test("without --for the first reading below meets it")
    func immediate() {
        var wait = ThresholdWait(condition: WaitCondition(threshold: .percent(30), holdSeconds: 0))
        #expect(wait.observe(reading(300), fetchedAt: at(0), opening: open) == .waiting(heldSeconds: nil))
        #expect(wait.observe(reading(144), fetchedAt: at(2), opening: open) == .met(heldSeconds: 0))
    }

    @Test("--for 10m: met only after ten minutes below; a dip that ends early starts again")
    func hold() {
        var wait = ThresholdWait(condition: WaitCondition(threshold: .percent(30), holdSeconds: 600))
        #expect(wait.observe(reading(144), fetchedAt: at(0), opening: open) == .waiting(heldSeconds: 0))
        #expect(wait.observe(reading(150), fetchedAt: at(4), opening: open) == .waiting(heldSeconds: 240))
        #expect(wait.observe(reading(200), fetchedAt: at(8), opening: open) == .waiting(heldSeconds: nil))
        #expect(wait.observe(reading(100), fetchedAt: at(10), opening: open) == .waiting(heldSeconds: 0))
        #expect(wait.observe(reading(100), fetchedAt: at(16), opening: open) == .waiting(heldSeconds: 360))
        #expect(wait.observe(reading(90), fetchedAt: at(20), opening: open) == .met(heldSeconds: 600))
    }

    @Test("a repeated source reading counts once; its own time measures the hold")
    func repeatedSource() {
        var wait = ThresholdWait(condition: WaitCondition(threshold: .percent(30), holdSeconds: 600))
        #expect(
            wait.observe(reading(144), fetchedAt: at(1), sourceTime: at(0), opening: open)
                == .waiting(heldSeconds: 0))
        // The same source reading fetched again much later is no new evidence.
        #expect(
            wait.observe(reading(144), fetchedAt: at(12), sourceTime: at(0), opening: open)
                == .waiting(heldSeconds: 0))
        #expect(
            wait.observe(reading(140), fetchedAt: at(13), sourceTime: at(10), opening: open)
                == .met(heldSeconds: 600))
    }

    @Test("a failed poll is a gap: it neither breaks nor extends the hold, but more than 15 min starts again")
    func gaps() {
        var wait = ThresholdWait(condition: WaitCondition(threshold: .percent(30), holdSeconds: 600))
        _ = wait.observe(reading(144), fetchedAt: at(0), opening: open)
        #expect(wait.observe(nil, fetchedAt: at(4), opening: open) == .waiting(heldSeconds: 0))
        #expect(wait.observe(reading(144), fetchedAt: at(6), opening: open) == .waiting(heldSeconds: 360))
        #expect(wait.observe(reading(144), fetchedAt: at(22), opening: open) == .waiting(heldSeconds: 0))
    }

    @Test("closed: says when it opens; closing before the hold can finish: closesFirst with the next opening")
    func closing() {
        var wait = ThresholdWait(condition: WaitCondition(threshold: .percent(30), holdSeconds: 1800))
        #expect(
            wait.observe(reading(0), fetchedAt: at(0), opening: .closed(opensAt: at(300)))
                == .closed(opensAt: at(300)))
        let hours = FacilityHours(days: [:])
        #expect(
            wait.observe(reading(100), fetchedAt: at(0), opening: .open(closesAt: at(20)), hours: hours)
                == .closesFirst(closesAt: at(20), opensAgainAt: nil))
        var lenient = ThresholdWait(condition: WaitCondition(threshold: .percent(30), holdSeconds: 600))
        #expect(
            lenient.observe(reading(100), fetchedAt: at(0), opening: .open(closesAt: at(20)))
                == .waiting(heldSeconds: 0))
    }
}

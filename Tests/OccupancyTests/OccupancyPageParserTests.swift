import Occupancy
import OccupancyViews
import TestServer
import Testing

private let warMemorial = Facility.virginiaTech[0]
private let wall = Facility.virginiaTech[2]

@Suite("The occupancy page parser")
struct OccupancyPageParserTests {
    @Test(
        "reads occupancy, remaining and capacity whatever the quoting",
        arguments: OccupancyFragments.Quoting.allCases)
    func quoting(_ quoting: OccupancyFragments.Quoting) throws {
        let page = OccupancyFragments.fragment(
            id: warMemorial.id, name: warMemorial.name, occupancy: "165", remaining: "1035",
            maxOccupancy: "1200",
            quoting: quoting)
        let reading = try OccupancyPageParser.parse(page, for: warMemorial)
        #expect(reading == OccupancyReading(occupancy: 165, remaining: 1035, capacity: 1200))
        #expect(reading.percent == 13)
    }

    @Test("thousands separators in the numbers and the capacity")
    func thousands() throws {
        let page = OccupancyFragments.fragment(
            id: warMemorial.id, name: warMemorial.name, occupancy: "1,150", remaining: "1,350",
            maxOccupancy: "2,500")
        #expect(
            try OccupancyPageParser.parse(page, for: warMemorial)
                == OccupancyReading(occupancy: 1150, remaining: 1350, capacity: 2500))
    }

    @Test("capacity comes from the page when it says, else from the config")
    func capacity() throws {
        let withLabel = OccupancyFragments.fragment(
            id: warMemorial.id, name: warMemorial.name, occupancy: "300", remaining: "1200",
            maxOccupancy: "1500")
        #expect(try OccupancyPageParser.parse(withLabel, for: warMemorial).capacity == 1500)
        let without = OccupancyFragments.fragment(
            id: warMemorial.id, name: warMemorial.name, occupancy: "300", remaining: nil, maxOccupancy: nil)
        let reading = try OccupancyPageParser.parse(without, for: warMemorial)
        #expect(reading == OccupancyReading(occupancy: 300, remaining: 900, capacity: 1200))
        #expect(reading.percent == 25)
    }

    @Test("over capacity: remaining 0 or negative reads as 0 and 100 %")
    func overCapacity() throws {
        for remaining in ["0", "-3"] {
            let page = OccupancyFragments.fragment(
                id: wall.id, name: wall.name, occupancy: "11", remaining: remaining, maxOccupancy: "8")
            let reading = try OccupancyPageParser.parse(page, for: wall)
            #expect(reading.remaining == 0)
            #expect(reading.percent == 100)
            #expect(reading.occupancy == 11)
        }
    }

    @Test("percent is truncated: 1199 of 1200 is 99 %")
    func truncated() {
        #expect(OccupancyReading(occupancy: 1199, capacity: 1200).percent == 99)
        #expect(OccupancyReading(occupancy: 0, capacity: 1200).percent == 0)
    }

    @Test("a word instead of a number is unavailable, never 0 people")
    func word() {
        let page = OccupancyFragments.fragment(
            id: warMemorial.id, name: warMemorial.name, occupancy: "closed", remaining: "closed",
            maxOccupancy: "1200")
        #expect(throws: OccupancyPageProblem.notANumber("closed")) {
            try OccupancyPageParser.parse(page, for: warMemorial)
        }
    }

    @Test("the -sm duplicate must agree")
    func smallDuplicate() {
        let page = OccupancyFragments.fragment(
            id: warMemorial.id, name: warMemorial.name, occupancy: "165", remaining: "1035",
            maxOccupancy: "1200",
            smallOccupancy: "170")
        #expect {
            try OccupancyPageParser.parse(page, for: warMemorial)
        } throws: { error in
            guard case OccupancyPageProblem.inconsistent = error else { return false }
            return true
        }
    }

    @Test(
        "pages without the numbers are unavailable",
        arguments: [
            (OccupancyFragments.signInPage, OccupancyPageProblem.signInPage),
            (OccupancyFragments.temporarilyUnavailable, .temporarilyUnavailable),
            ("<html><body><p>Welcome to RecSports</p></body></html>", .noNumbers),
            ("", .emptyPage),
        ])
    func unavailable(page: String, problem: OccupancyPageProblem) {
        #expect(throws: problem) { try OccupancyPageParser.parse(page, for: warMemorial) }
    }

    @Test("charts for another facility only: the ID may have changed")
    func otherFacility() {
        let page = OccupancyFragments.fragment(
            id: "da73849e-434d-415f-975a-4f9e799b9c39", name: "McComas Hall", occupancy: "100",
            remaining: "500",
            maxOccupancy: "600")
        #expect(throws: OccupancyPageProblem.otherFacility(id: warMemorial.id)) {
            try OccupancyPageParser.parse(page, for: warMemorial)
        }
    }

    @Test("the full page lists every facility card with its ID and name")
    func discovery() {
        let page = OccupancyFragments.fullPage([
            (warMemorial.id, "War Memorial Hall", 1200, 165),
            ("232d714e-5b3e-4b0d-9936-e6a738150ec4", "McComas Hall &amp; Pool", 600, 80),
        ])
        let found = FacilityDiscovery.parse(page)
        #expect(found.map(\.id) == [warMemorial.id, "232d714e-5b3e-4b0d-9936-e6a738150ec4"])
        #expect(found.map(\.name) == ["War Memorial Hall", "McComas Hall & Pool"])
        #expect(found.map(\.capacity) == [1200, 600])
        #expect(found.map(\.occupancy) == [165, 80])
    }
}

@Suite("Occupancy display")
struct OccupancyDisplayTests {
    @Test(
        "counts from 1000 read 1.2k, truncated, the tenth always written",
        arguments: [(999, "999"), (1000, "1.0k"), (1035, "1.0k"), (1250, "1.2k"), (12_345, "12.3k")])
    func count(value: Int, text: String) {
        #expect(OccupancyTextView.count(value) == text)
    }
}

import Occupancy
import TestServer
import Testing

private let cards = [
    FusionCampusPages.Card(
        id: "1799266f-57d9-4cb2-9f43-f5fd88b241db", name: "Fitness Center", capacity: 150, value: 61),
    FusionCampusPages.Card(
        id: "6b4acca4-485d-44f9-93c7-391a7526e3fc", name: "Slug Shed", capacity: 40, value: 7),
]

private func facility(_ card: FusionCampusPages.Card, measure: OccupancyMeasure = .people) -> Facility {
    Facility(
        key: "k", name: card.name, shortName: card.name, id: card.id, capacity: 999, segments: 14,
        measure: measure)
}

@Suite("The full Fusion occupancy page, in every layout seen")
struct FusionPageTests {
    @Test(
        "discovery reads ID, name without its number, capacity and head count",
        arguments: [
            FusionCampusPages.Layout.charts, .countText,
        ])
    func discovery(layout: FusionCampusPages.Layout) {
        let found = FacilityDiscovery.parse(FusionCampusPages.page(cards, layout: layout))
        #expect(found.map(\.id) == cards.map(\.id))
        #expect(found.map(\.name) == ["Fitness Center", "Slug Shed"])
        #expect(found.map(\.capacity) == [150, 40])
        #expect(found.map(\.occupancy) == [61, 7])
        #expect(found.allSatisfy { $0.measure == .people })
    }

    @Test(
        "a percent-only page is discovered as percent, with no head count",
        arguments: [FusionCampusPages.Layout.percentText, .percentChart])
    func percentDiscovery(layout: FusionCampusPages.Layout) {
        let percentCards = cards.map {
            FusionCampusPages.Card(
                id: $0.id, name: $0.name, capacity: $0.capacity, value: 45, percentOnly: true)
        }
        let found = FacilityDiscovery.parse(FusionCampusPages.page(percentCards, layout: layout))
        #expect(found.map(\.measure) == [.percent, .percent])
        #expect(found.map(\.occupancy) == [nil, nil])
        #expect(found.map(\.percent) == [45, 45])
    }

    @Test(
        "discovery and the occupancy reading agree on every card, in every layout",
        arguments: FusionCampusPages.Layout.allCases)
    func oneReader(layout: FusionCampusPages.Layout) throws {
        let percentOnly = layout == .percentText || layout == .percentChart
        let shown = cards.map {
            FusionCampusPages.Card(
                id: $0.id, name: $0.name, capacity: $0.capacity, value: 42, percentOnly: percentOnly)
        }
        let page = FusionCampusPages.page(shown, layout: layout)
        for discovered in FacilityDiscovery.parse(page) {
            // The facility as `campus add` keeps it, then read as `occupancy` reads it.
            let kept = Facility(
                key: "k", name: discovered.name, shortName: "k", id: discovered.id,
                capacity: discovered.capacity ?? 100, segments: 14, measure: discovered.measure)
            let reading = try FusionPage.reading(in: page, for: kept)
            #expect(reading.measure == discovered.measure)
            if discovered.measure == .percent {
                #expect(reading == .percentOnly(42))
                #expect(discovered.percent == 42)
            } else {
                #expect(reading.occupancy == discovered.occupancy)
            }
        }
    }

    @Test(
        "each facility is read off its own card, in every head-count layout",
        arguments: [
            FusionCampusPages.Layout.charts, .countText,
        ])
    func reading(layout: FusionCampusPages.Layout) throws {
        let page = FusionCampusPages.page(cards, layout: layout)
        #expect(
            try FusionPage.reading(in: page, for: facility(cards[0]))
                == OccupancyReading(occupancy: 61, capacity: 150))
        #expect(
            try FusionPage.reading(in: page, for: facility(cards[1]))
                == OccupancyReading(occupancy: 7, capacity: 40))
    }

    @Test(
        "a percent-only card reads as a percent, never as people",
        arguments: [FusionCampusPages.Layout.percentText, .percentChart])
    func percentReading(layout: FusionCampusPages.Layout) throws {
        let page = FusionCampusPages.page(
            [
                FusionCampusPages.Card(
                    id: cards[0].id, name: "Gym", capacity: 300, value: 45, percentOnly: true)
            ],
            layout: layout)
        let reading = try FusionPage.reading(in: page, for: facility(cards[0], measure: .percent))
        #expect(reading == .percentOnly(45))
        #expect(!reading.countsPeople)
        #expect(reading.percent == 45)
        // Configured as people, the page still says only a percent: it is read as one.
        #expect(try FusionPage.reading(in: page, for: facility(cards[0])) == .percentOnly(45))
    }

    @Test("a facility missing from a page of cards: its ID may have changed")
    func missing() {
        let page = FusionCampusPages.page(cards, layout: .charts)
        let other = Facility(
            key: "x", name: "X", shortName: "X", id: "00000000-0000-0000-0000-000000000001", capacity: 9,
            segments: 8)
        #expect(throws: OccupancyPageProblem.otherFacility(id: other.id)) {
            try FusionPage.reading(in: page, for: other)
        }
    }

    @Test(
        "pages that are not the occupancy page say which, never zero",
        arguments: [
            (FusionCampusPages.waitingRoom, OccupancyPageProblem.waitingRoom),
            (FusionCampusPages.javaScriptShell, .javaScriptShell),
            (FusionCampusPages.signIn, .signInPage),
            ("", .emptyPage),
            ("<html><body></body></html>", .emptyPage),
        ])
    func notThePage(page: String, problem: OccupancyPageProblem) {
        #expect(throws: problem) { try FusionPage.reading(in: page, for: facility(cards[0])) }
        #expect(FacilityDiscovery.parse(page).isEmpty)
    }

    @Test("a Sign In link in the page's navigation is not a sign-in page")
    func signInLink() {
        #expect(FusionPage.pageProblem(FusionCampusPages.page(cards, layout: .charts)) == nil)
    }

    @Test(
        "the source's own time: #last-update and 'Showing results from'",
        arguments: [
            ("<span id=\"last-update\">2:56 PM</span>", 14, 56),
            ("<p id='last-update'>Last Updated: 11/21/2026 10:05 AM</p>", 10, 5),
            ("<p>Showing results from 12:07 AM</p>", 0, 7),
            ("<span id=\"last-update\">16:40</span>", 16, 40),
        ])
    func lastUpdate(html: String, hour: Int, minute: Int) {
        let clock = FusionPage.lastUpdated(in: html)
        #expect(clock?.hour == hour)
        #expect(clock?.minute == minute)
    }

    @Test("no time, or not a time: none")
    func noLastUpdate() {
        #expect(FusionPage.lastUpdated(in: "<p>Facility Occupancy</p>") == nil)
        #expect(FusionPage.lastUpdated(in: "<span id=\"last-update\">soon</span>") == nil)
        #expect(FusionPage.lastUpdated(in: "<span id=\"last-update\">13:75</span>") == nil)
    }
}

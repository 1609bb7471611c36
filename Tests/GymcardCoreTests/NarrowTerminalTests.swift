import CampusFeature
import CardFeature
import Foundation
import GymcardCore
import Occupancy
import TestSupport
import Testing
import Trends

/// `hours`, `best`, `trends` and `facilities` at 40 columns (a phone in portrait, a tmux split): every
/// line fits, and what the views are for is still there.
@Suite("The history and hours views on a 40-column terminal, in process")
struct NarrowTerminalTests {
    private func context(_ home: TemporaryDirectory) throws -> Context {
        try Context(
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "GYMCARD_TEST_NOW": noon],
            online: nil
        ) { _ in }
    }

    private func expectFits(
        _ lines: [String], _ columns: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let wide = lines.filter { $0.count > columns }
        #expect(wide.isEmpty, "wider than \(columns): \(wide)", sourceLocation: sourceLocation)
    }

    @Test func hoursDemoFitsAndKeepsEveryDayAndToday() throws {
        let home = try TemporaryDirectory()
        let week = try HoursWeek.demo(facility: nil, days: 7, settings: .virginiaTech, context: context(home))
        let lines = week.lines(colour: false, columns: 40)
        expectFits(lines, 40)
        #expect(lines.joined(separator: " ").contains("DEMO: made-up readings"))
        // Each facility's name, then a line per day starting with its date, today marked.
        for name in ["McComas Hall", "War Memorial Hall", "Bouldering Wall"] {
            #expect(lines.contains { $0.hasPrefix(name) }, "\(lines)")
        }
        #expect(lines.filter { $0.hasPrefix("  Mon, Nov 23  ") && $0.hasSuffix("◂") }.count == 3, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("  Sun, Nov 29  ") && $0.contains(" – ") }.count == 3, "\(lines)")
        // At 80 columns nothing changes from the unlimited text.
        #expect(week.lines(colour: false, columns: 80) == week.lines(colour: false))
    }

    @Test func bestDemoFitsWithEveryWindowAndItsUsualOccupancy() async throws {
        let home = try TemporaryDirectory()
        let facilities = OccupancySettings.virginiaTech.facilities
        let wide = try await HistoryWindow(
            settings: .virginiaTech, weeks: 8, demo: true, context: context(home)
        )
        .best(facilities, lengthSeconds: 5400, horizonSeconds: 43_200) {
            throw NoNetwork()
        }
        let narrow = try await HistoryWindow(
            settings: .virginiaTech, weeks: 8, demo: true, context: context(TemporaryDirectory())
        ).best(
            facilities, lengthSeconds: 5400, horizonSeconds: 43_200, columns: 40
        ) { throw NoNetwork() }
        expectFits(narrow.lines, 40)
        #expect(narrow.suggested == wide.suggested)
        // Every window of the wide text is still there, its usual occupancy and band on the next line.
        let windows: [String] = wide.lines.filter { $0.hasPrefix("  ") && $0.contains("usually") }
        #expect(!windows.isEmpty, "\(wide.lines)")
        // In order: the same times appear for more than one facility.
        var searchFrom = 0
        for row in windows {
            let cells: [String] = row.split(separator: "  ").map { String($0.drop { $0 == " " }) }
            guard let index = narrow.lines[searchFrom...].firstIndex(of: "  " + cells[0]) else {
                Issue.record("\(cells[0]) missing from \(narrow.lines)")
                continue
            }
            #expect(narrow.lines[index + 1] == "    " + cells.dropFirst().joined(separator: "  "))
            searchFrom = index + 1
        }
        // Prose is wrapped, not cut: the same words in the same order.
        #expect(words(narrow.lines) == words(wide.lines))
    }

    @Test func trendsDemoSplitsTheDayAtNoonAndKeepsEveryCell() throws {
        let home = try TemporaryDirectory()
        let window = try HistoryWindow(settings: .virginiaTech, weeks: 8, demo: true, context: context(home))
        let facilities = try window.heatmaps(OccupancySettings.virginiaTech.facilities)
        let wide = window.lines(facilities, colour: .none)
        let narrow = window.lines(facilities, colour: .none, columns: 40)
        expectFits(narrow, 40)
        // Each weekday row of 48 cells becomes a morning row and an afternoon row of 24.
        for weekday in ["Mon", "Sun"] {
            let full = wide.filter { $0.hasPrefix(weekday + "  ") }.map { $0.dropFirst(5) }
            let halves = narrow.filter { $0.hasPrefix(weekday + "  ") }.map { $0.dropFirst(5) }
            #expect(full.count == 3 && halves.count == 6, "\(narrow)")
            for facility in 0..<full.count {
                #expect(String(halves[2 * facility] + halves[2 * facility + 1]) == String(full[facility]))
            }
        }
        #expect(narrow.contains("     0     3     6     9     "))
        #expect(narrow.contains("     12    15    18    21    "))
        #expect(narrow.contains { $0.contains("░ <25%") } && narrow.contains { $0.contains("◆ now") })
        // At 80 columns the grid is as before; only the title, 89 characters, wraps.
        let eighty = window.lines(facilities, colour: .none, columns: 80)
        #expect(eighty.filter { $0.hasPrefix("Mon  ") } == wide.filter { $0.hasPrefix("Mon  ") })
        #expect(
            eighty.filter { $0.contains("0     3     6") } == wide.filter { $0.contains("0     3     6") })
        #expect(window.lines(facilities, colour: .none, columns: 200) == wide)
    }

    @Test func facilitiesDropTheCapacityThenTheIDButKeepKeysAndNames() {
        let listing = FacilityListing(configured: .virginiaTech)
        let narrow = listing.text(columns: 40).split(separator: "\n").map(String.init)
        expectFits(narrow, 40)
        #expect(narrow.first == "KEY              NAME")
        for facility in OccupancySettings.virginiaTech.facilities {
            #expect(narrow.contains { $0.hasPrefix(facility.key) && $0.hasSuffix(facility.name) })
        }
        // At 80 columns only the capacity goes: the IDs are what `facilities` is for.
        let eighty = listing.text(columns: 80).split(separator: "\n")
        #expect(eighty.first == "KEY              NAME               ID")
        #expect(eighty.allSatisfy { $0.count <= 80 })
        #expect(listing.text(columns: 60).split(separator: "\n").first == "KEY              NAME")
        #expect(listing.text(columns: 120) == listing.text)
    }

    private struct NoNetwork: Error {}

    private func words(_ lines: [String]) -> [Substring] {
        lines.flatMap { $0.split(separator: " ") }
    }
}

import Foundation
import Occupancy
import TestSupport
import Testing

/// `../shared/realworld/fusion-fixtures`: Fusion responses third-party scrapers wrote (absent outside this
/// workspace); MANIFEST.tsv says what each must read as.
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/realworld/fusion-fixtures")

private struct Fixture: Sendable, CustomTestStringConvertible {
    var file: String
    var kind: String
    var occupancy: String
    var remaining: String
    var capacity: String
    var facilityID: String
    var configCapacity: Int
    var testDescription: String { file }
}

/// Whether the folder is there (its manifest is).
private let fixturesPresent = FileManager.default.fileExists(
    atPath: fixtures.appendingPathComponent("MANIFEST.tsv").path)

/// The manifest's fixtures; none when the folder is absent (the tests are then skipped, or fail in CI).
private func manifest() -> [Fixture] {
    guard let text = try? String(contentsOf: fixtures.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").compactMap { line in
        guard !line.hasPrefix("#") else { return nil }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 7, let configCapacity = Int(fields[6]) else { return nil }
        return Fixture(
            file: fields[0], kind: fields[1], occupancy: fields[2], remaining: fields[3], capacity: fields[4],
            facilityID: fields[5], configCapacity: configCapacity)
    }
}

/// `*`, a number, `unavailable`, or `a|b`.
private func matches(_ expected: String, _ value: Int?) -> Bool {
    expected.split(separator: "|").contains { option in
        switch option {
        case "*": return true
        case "unavailable": return value == nil
        default: return value == Int(option)
        }
    }
}

@Suite("Third-party Fusion fixtures read as their MANIFEST says")
struct FusionFixtureTests {
    @Test(
        "each fragment gives the numbers, or unavailable, the manifest expects",
        .enabled(
            if: Prerequisite.runs(fixturesPresent),
            "../shared/realworld/fusion-fixtures is not beside the package"),
        arguments: manifest())
    fileprivate func fragment(_ fixture: Fixture) throws {
        let html = try String(contentsOf: fixtures.appendingPathComponent(fixture.file), encoding: .utf8)
        let facility = Facility(
            key: "f", name: "F", shortName: "F", id: fixture.facilityID, capacity: fixture.configCapacity,
            segments: 14)
        if fixture.kind == "page" {
            let listed = try String(
                contentsOf: fixtures.appendingPathComponent(fixture.file + ".ids"), encoding: .utf8)
            let ids = listed.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            #expect(FacilityDiscovery.parse(html).map(\.id) == ids)
            return
        }
        let reading = try? FusionPage.reading(in: html, for: facility)
        #expect(matches(fixture.occupancy, reading?.occupancy), "occupancy \(String(describing: reading))")
        if let reading {
            #expect(matches(fixture.remaining, reading.remaining), "remaining \(reading.remaining)")
            #expect(matches(fixture.capacity, reading.capacity), "capacity \(reading.capacity)")
        }
    }

    @Test(
        "the manifest is there and lists every kind",
        .enabled(
            if: Prerequisite.runs(fixturesPresent),
            "../shared/realworld/fusion-fixtures is not beside the package"))
    func present() {
        let all = manifest()
        #expect(all.count >= 20)
        #expect(all.contains { $0.kind == "page" })
    }
}

import CardVault
import Foundation
import Symbologies
import TestSupport
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import GymcardCore

/// What `card` says: the symbology beside the ID, in lines and in JSON.
@Suite struct CardReportTests {
    @Test("an unlocked card's lines and JSON name its symbology; a Codabar ID shows in both forms")
    func symbology() throws {
        let directory = try TemporaryDirectory()
        let store = CardStore(directory: directory.path)
        let clock = Date(timeIntervalSince1970: 1_790_000_000)
        for (symbology, text, shown) in [
            (Symbology.code128, "GYM0042a/7", "GYM0042a/7"),
            (.codabar, "A905123456B", "9051-23456 (A905123456B)"),
        ] {
            let content = try BarcodeContent(symbology: symbology, normalizing: text)
            let record = CardRecord(content: content, label: nil, now: clock)
            try store.save(record, passphrase: nil)
            let report = CardReport(store: store, protection: .unencrypted, record: record)
            let lines = try report.lines(now: clock, lockedReason: "locked", dateAndClock: { _ in "then" })
            #expect(lines.map(\.name) == ["Card", "Written", "Label", "Barcode", "ID", "Created", "Updated"])
            #expect(lines.first { $0.name == "Barcode" }?.value == symbology.displayName)
            #expect(lines.first { $0.name == "ID" }?.value == shown)
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
            #expect(json["symbology"] as? String == symbology.name)
            #expect(json["id"] as? String == text)
        }
        let locked = CardReport(store: store, protection: .unencrypted, record: nil)
        let lines = try locked.lines(now: clock, lockedReason: "locked (--locked)", dateAndClock: { _ in "" })
        #expect(lines.last?.value == "locked (--locked)")
        #expect(!locked.json.contains("symbology"))
    }
}

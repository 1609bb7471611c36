import Catima
import Synchronization
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import GymcardCore

/// `import`'s choice among the cards of a file: only those with a barcode gymcard can draw are offered.
@Suite struct CatimaChoiceTests {
    /// Cards Catima keeps without a barcode gymcard draws: no type, MAXICODE, an EAN-13 whose check digit
    /// is wrong.
    static let undrawable =
        "2\r\n\r\n_id\r\n\r\n" + CatimaCSV.cardColumns.joined(separator: ",") + "\r\n"
        + "1,Pharmacy,,,,0,,dhshsvshs,,,,-10902850,1,0,0\r\n"
        + "2,Museum,,,,0,,X1,,MAXICODE,,,0,0,0\r\n"
        + "3,Shop,,,,0,,4006381333932,,EAN_13,,,0,0,0\r\n"

    @Test(
        "the menu offers only cards with a barcode gymcard draws, takes the only one, and says when none has")
    func onlyDrawableOffered() throws {
        let none = try CatimaCSV.read(Array((Self.undrawable + "\r\ncardId,groupId\r\n").utf8)).cards
        let problem = try #require(throws: CatimaProblem.self) {
            try CardImport.choose(from: none, store: nil, list: { _ in }, ask: { _ in "1" })
        }
        #expect(problem.kind == .badData)
        #expect(problem.message.hasPrefix("none of the 3 cards has a barcode gymcard can draw"))
        let one = try CatimaCSV.read(
            Array(
                (Self.undrawable + "4,Gym,,,,0,,C1234D,,CODABAR,,,0,0,0\r\n\r\ncardId,groupId\r\n").utf8)
        ).cards
        let said = Said()
        let taken = try CardImport.choose(
            from: one, store: nil, list: { line in said.lines.withLock { $0.append(line) } },
            ask: { _ in
                Issue.record("asked with one card to offer"); return nil
            })
        #expect(taken.store == "Gym")
        #expect(
            said.lines.withLock { $0 } == [
                "taking Gym (Codabar, line 9), the only card of 4 with a barcode gymcard can draw"
            ])
        let two = try CatimaCSV.read(
            Array(
                (Self.undrawable
                    + "4,Gym,,,,0,,C1234D,,CODABAR,,,0,0,0\r\n5,Pool,,,,0,,A1B,,CODABAR,,,0,0,0\r\n"
                    + "\r\ncardId,groupId\r\n").utf8)
        ).cards
        let listed = Said()
        let pool = try CardImport.choose(
            from: two, store: nil, list: { line in listed.lines.withLock { $0.append(line) } },
            ask: { _ in "2" })
        #expect(pool.store == "Pool")
        #expect(
            listed.lines.withLock { $0 } == [
                "2 cards with a barcode gymcard can draw:", "  1. Gym — Codabar, line 9",
                "  2. Pool — Codabar, line 10", "(3 other cards have no barcode gymcard can draw)",
            ])
    }

}

import CampusFeature
import CardFeature
import GymcardCore
import Occupancy
import Testing

/// Durations and thresholds as people type them on the command line, and durations as gymcard says them.
@Suite struct DurationWordsTests {
    @Test(arguments: [
        ("90m", 5400), ("2h30m", 9000), ("45s", 45), ("1d", 86_400), ("12H", 43_200), ("0", 0),
        ("1h0m", 3600),
    ])
    func durationsPeopleWrite(text: String, seconds: Int) {
        #expect(DurationWords.seconds(text) == seconds)
    }

    @Test(arguments: ["", "90", "m", "1.5h", "2w", "1h30", "-5m", "1234567m", "1 h", "00"])
    func textThatIsNoDuration(text: String) {
        #expect(DurationWords.seconds(text) == nil)
    }

    @Test func durationsAreSaidInMinutesUnderTwoHoursThenInHours() {
        #expect(DurationWords.text(5400) == "90 min")
        #expect(DurationWords.text(7200) == "2 h")
        #expect(DurationWords.text(9000) == "2 h 30 min")
    }

    @Test func thresholdsArePercentagesOrPeopleEachWithItsRange() throws {
        #expect(WaitCondition.Threshold(text: " 30% ") == .percent(30))
        #expect(WaitCondition.Threshold(text: "120") == .people(120))
        #expect(WaitCondition.Threshold(text: "thirty") == nil)
        #expect(WaitCondition.Threshold(text: "30%")?.problem == nil)
        #expect(try #require(WaitCondition.Threshold(text: "0%")).problem?.contains("above 0") == true)
        #expect(try #require(WaitCondition.Threshold(text: "101%")).problem?.contains("at most 100") == true)
        #expect(try #require(WaitCondition.Threshold(text: "0")).problem?.contains("people above 0") == true)
    }
}

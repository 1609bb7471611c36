import GymcardCore
import Occupancy
import TextSearch

/// Durations as people write them (`90m`, `12h`, `2h30m`, `45s`, `1d`; a bare `0`) and say them (`90
/// min`, `12 h`, `2 h 30 min`).
public enum DurationWords {
    /// Seconds, or `nil` when the text is not a duration.
    public static func seconds(_ text: String) -> Int? {
        var total = 0
        var number = ""
        for character in text.lowercased() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
            guard let unit = units[character], let value = Int(number), number.count <= 6 else { return nil }
            total += value * unit
            number = ""
        }
        // A bare 0 is no time at all (`--for 0`); other numbers need a unit.
        guard number.isEmpty ? text.last?.isLetter == true : number == "0" else { return nil }
        return total
    }

    /// `90 min` (under two hours), `12 h`, `2 h 30 min`.
    public static func text(_ seconds: Int) -> String {
        let (hours, minutes) = (seconds / 3600, seconds % 3600 / 60)
        if seconds < 2 * 3600 { return "\(seconds / 60) min" }
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }
}

/// A duration as a person gave it (`90m`, `2h30m`, `30s`): its seconds, and the text for messages
/// (`within 30s`).
public struct GivenDuration: Sendable, Equatable {
    /// Seconds.
    public var seconds: Int
    /// As given.
    public var text: String

    /// `seconds`, written `text`.
    public init(seconds: Int, text: String) {
        self.seconds = seconds
        self.text = text
    }

    /// The duration `text` writes, or `nil` when it is none.
    public init?(_ text: String) {
        guard let seconds = DurationWords.seconds(text) else { return nil }
        self.init(seconds: seconds, text: text)
    }
}

extension WaitCondition.Threshold {
    /// A percentage (`30%`) or a number of people (`120`), or `nil`; the range is ``problem``'s.
    public init?(text: String) {
        let text = text.trimmed
        if text.hasSuffix("%") {
            guard let value = Double(String(text.dropLast()).trimmed) else { return nil }
            self = .percent(value)
        } else {
            guard let value = Int(text) else { return nil }
            self = .people(value)
        }
    }

    /// Why no reading could be below it, or `nil`.
    public var problem: String? {
        switch self {
        case .percent(let value) where !(value > 0 && value <= 100):
            "give a percentage above 0 and at most 100, such as 30%"
        case .people(let value) where value <= 0: "give a number of people above 0, such as 120"
        default: nil
        }
    }
}

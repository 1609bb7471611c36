import ArgumentParser
import Occupancy
import TextSearch

/// A duration as people write it (`90m`, `12h`, `2h30m`, `45s`, `1d`), parsed once by argument-parser;
/// each command checks its own range in `validate()`.
struct DurationArgument: ExpressibleByArgument, Sendable {
    /// Seconds.
    var seconds: Int
    /// As given, for messages (`within 30s`).
    var text: String

    init(seconds: Int, text: String) {
        self.seconds = seconds
        self.text = text
    }

    init?(argument: String) {
        var total = 0
        var number = ""
        for character in argument.lowercased() {
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
        guard number.isEmpty ? argument.last?.isLetter == true : number == "0" else { return nil }
        self.init(seconds: total, text: argument)
    }

    var defaultValueDescription: String { text }
}

/// `--below`: a percentage (`30%`) or a number of people (`120`); the range is checked in `validate()`.
struct ThresholdArgument: ExpressibleByArgument, Sendable {
    var threshold: WaitCondition.Threshold

    init?(argument: String) {
        let text = argument.trimmed
        if text.hasSuffix("%") {
            guard let value = Double(String(text.dropLast()).trimmed) else { return nil }
            threshold = .percent(value)
        } else {
            guard let value = Int(text) else { return nil }
            threshold = .people(value)
        }
    }

    /// Why the threshold cannot be met by any reading, or `nil`.
    var problem: String? {
        switch threshold {
        case .percent(let value) where !(value > 0 && value <= 100):
            "give a percentage above 0 and at most 100, such as 30%"
        case .people(let value) where value <= 0: "give a number of people above 0, such as 120"
        default: nil
        }
    }
}

/// Durations in words: `90 min` (under two hours), `12 h`, `2 h 30 min`.
enum DurationText {
    static func text(_ seconds: Int) -> String {
        let (hours, minutes) = (seconds / 3600, seconds % 3600 / 60)
        if seconds < 2 * 3600 { return "\(seconds / 60) min" }
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }
}

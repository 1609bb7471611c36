/// Durations as people write them: `90m`, `12h`, `2h30m`, `45s`, `1d`.
enum DurationText {
    /// Seconds, or `nil` when the text is not a duration.
    static func seconds(_ text: String) -> Int? {
        var total = 0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let value = Int(number), number.count <= 6 else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return total
    }

    /// `90 min` (under two hours), `12 h`, `2 h 30 min`.
    static func text(_ seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds % 3600 / 60
        if seconds < 2 * 3600 { return "\(seconds / 60) min" }
        switch (hours, minutes) {
        case (_, 0): return "\(hours) h"
        default: return "\(hours) h \(minutes) min"
        }
    }
}

import TextSearch

/// A time on the local clock as sources and config files write it: `06:00`, `6:00:00`, `24:00`,
/// `6:00 AM`, `11:30pm`.
struct ClockTime: Equatable, Sendable {
    /// Seconds after midnight, 0…86 400 (`24:00` is the end of the day).
    var secondOfDay: Int

    /// Reads a clock time, or `nil` when the text is not one.
    init?(_ text: String) {
        var rest = Substring(text.trimmed.lowercased())
        var meridiem: Int?
        for (suffix, offset) in [("am", 0), ("a.m.", 0), ("pm", 12), ("p.m.", 12)]
        where rest.hasSuffix(suffix) {
            meridiem = offset
            rest = rest.dropLast(suffix.count)
            while rest.last == " " { rest.removeLast() }
            break
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            var hour = Int(parts[0]), meridiem != nil || parts.count >= 2
        else { return nil }
        let minute = parts.count > 1 ? Int(parts[1]) ?? 99 : 0
        let second = parts.count > 2 ? Int(parts[2]) ?? 99 : 0
        guard minute < 60, second < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + meridiem
        }
        guard hour < 24 || (hour == 24 && minute == 0 && second == 0) else { return nil }
        secondOfDay = hour * 3600 + minute * 60 + second
    }
}

import FoundationEssentials

/// How old fetched data is, in words for messages and views.
public enum Age {
    /// "7 min ago"-style ages: `just now`, `45 s ago`, `7 min ago`, `3 h ago`, `4 days ago`.
    ///
    /// A time ahead of `now` (stamped by a clock that was ahead, or `now` is behind) reads the same way
    /// forward, `3 h in the future`, never as a negative or a fresh age; within 5 s either way is `just now`.
    public static func ago(from then: Date, to now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(then))
        if abs(seconds) < 5 { return "just now" }
        return seconds > 0 ? span(seconds) + " ago" : span(-seconds) + " in the future"
    }

    /// `45 s`, `7 min`, `3 h`, `4 days`.
    private static func span(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 48 * 3600 { return "\(seconds / 3600) h" }
        return "\(seconds / 86400) days"
    }
}

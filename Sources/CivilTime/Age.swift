import FoundationEssentials

/// How old fetched data is, in words for messages and views.
public enum Age {
    /// "7 min ago"-style ages: `just now`, `45 s ago`, `7 min ago`, `3 h ago`, `4 days ago`.
    public static func ago(from then: Date, to now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(then)))
        if seconds < 5 { return "just now" }
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 48 * 3600 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86400) days ago"
    }
}

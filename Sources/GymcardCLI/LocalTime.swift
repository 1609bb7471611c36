import FoundationEssentials
import Glibc

/// Local wall-clock times without Foundation's formatters (not in FoundationEssentials).
enum LocalTime {
    /// `15:04:05` in the local time zone (`TZ` respected).
    static func clock(_ date: Date) -> String {
        let parts = localParts(date)
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// `2026-11-24 15:04` in the local time zone (`TZ` respected).
    static func dateAndClock(_ date: Date) -> String {
        let parts = localParts(date)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    private static func localParts(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

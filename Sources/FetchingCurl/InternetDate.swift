import Foundation
import TextSearch

/// Dates in the RFC 5322 / RFC 9110 form, `Fri, 18 Oct 2024 20:00:00 GMT`, as HTTP headers and RSS use.
///
/// Parsed with the `en_US_POSIX` locale whatever the machine's locale: with a German or Japanese one,
/// `Fri` and `Oct` would not match and every date would fail (the iOS app's bug).
public enum InternetDate {
    /// Parses `Fri, 18 Oct 2024 20:00:00 GMT`, also without the weekday, with a numeric zone (`+0000`),
    /// or without seconds.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmed
        for formatter in formatters.value {
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// Formatting is not thread-safe on every platform; one set per thread is cheap.
    private static let formatters = ThreadLocalFormatters()

    private final class ThreadLocalFormatters: Sendable {
        private let key = "gymcard.InternetDate.formatters"
        var value: [DateFormatter] {
            if let cached = Thread.current.threadDictionary[key] as? [DateFormatter] { return cached }
            let made = [
                "EEE, d MMM yyyy HH:mm:ss zzz", "EEE, d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss zzz",
                "d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm zzz", "EEE, d MMM yyyy HH:mm Z",
            ].map { pattern in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(secondsFromGMT: 0)
                formatter.dateFormat = pattern
                return formatter
            }
            Thread.current.threadDictionary[key] = made
            return made
        }
    }
}

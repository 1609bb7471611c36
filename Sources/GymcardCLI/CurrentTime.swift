import FoundationEssentials

/// "Now" for the commands that depend on it (`events`, `trends`, `best`, `collect --status`).
enum CurrentTime {
    /// The current time; `GYMCARD_TEST_NOW` (ISO 8601) stands in for it in tests, as git's
    /// GIT_TEST_DATE_NOW does, so that dated feeds and histories can be checked.
    static func now(_ environment: [String: String]) throws -> Date {
        guard let text = environment["GYMCARD_TEST_NOW"], !text.isEmpty else { return Date() }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw Failure("GYMCARD_TEST_NOW is not an ISO 8601 time: \(text)", status: .usage)
        }
        return date
    }
}

import FoundationEssentials

/// "Now" for the commands that depend on it (`events`, `hours`, `occupancy`, `wait`, `trends`, `best`,
/// `collect --status`), and how long they sleep.
///
/// For tests only, as git's GIT_TEST_DATE_NOW: `GYMCARD_TEST_NOW` (ISO 8601) stands in for the current
/// time, so that dated feeds, histories and opening hours can be checked; `GYMCARD_TEST_TIME_SCALE=N`
/// makes time pass N times as fast (from that time, or from the real one), sleeps included, so that a
/// `wait` over minutes of polling runs in seconds. Neither is an option of the command line.
struct CurrentTime: Sendable {
    /// The moment the clock starts from.
    private let origin: Date
    /// When the process read it, on the monotonic clock.
    private let started: ContinuousClock.Instant
    /// How many seconds pass per real second (0: the test time stands still).
    private let scale: Double

    /// The clock the environment asks for.
    init(_ environment: [String: String]) throws {
        started = ContinuousClock.now
        var scale = 1.0
        if let text = environment["GYMCARD_TEST_TIME_SCALE"], !text.isEmpty {
            guard let value = Double(text), value >= 1, value <= 100_000 else {
                throw Failure("GYMCARD_TEST_TIME_SCALE must be a number from 1 to 100000", status: .usage)
            }
            scale = value
        }
        if let text = environment["GYMCARD_TEST_NOW"], !text.isEmpty {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw Failure("GYMCARD_TEST_NOW is not an ISO 8601 time: \(text)", status: .usage)
            }
            origin = date
            // A fixed test time stands still unless a scale is given.
            self.scale = environment["GYMCARD_TEST_TIME_SCALE"].map { $0.isEmpty ? 0 : scale } ?? 0
        } else {
            origin = Date()
            self.scale = scale
        }
    }

    /// The current time.
    var now: Date {
        guard scale != 0 else { return origin }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return origin.addingTimeInterval(seconds * scale)
    }

    /// Sleeps for `seconds` of this clock's time (cancellation ends it early, with an error).
    func sleep(seconds: Double) async throws {
        let real = scale == 0 || scale == 1 ? seconds : seconds / scale
        try await Task.sleep(for: .milliseconds(Int64((max(0, real) * 1000).rounded())))
    }

    /// The current time from the environment (`GYMCARD_TEST_NOW` in tests).
    static func now(_ environment: [String: String]) throws -> Date { try CurrentTime(environment).now }
}

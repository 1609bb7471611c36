import FoundationEssentials
import Synchronization

/// "Now" for the commands that depend on it (`events`, `hours`, `occupancy`, `wait`, `trends`, `best`,
/// `collect --status`), and how long they sleep.
///
/// For tests only, as git's GIT_TEST_DATE_NOW: `GYMCARD_TEST_NOW` (ISO 8601) stands in for the current
/// time, so that dated feeds, histories and opening hours can be checked; `GYMCARD_TEST_TIME_SCALE=N`
/// makes every sleep N times shorter while the clock still moves by the whole sleep, so that a `wait`
/// over minutes of polling runs in seconds. With both, only sleeps move the clock: the work between
/// them takes no test time, so a loaded machine sees the same polls at the same times as an idle one
/// (a clock that also ran would let a 30-second stall of the test process count as 30 s of a hold).
/// Neither is an option of the command line.
public struct CurrentTime: Sendable {
    /// The moment the clock starts from.
    private let origin: Date
    /// When the process read it, on the monotonic clock.
    private let started: ContinuousClock.Instant
    /// Whether real time passes (false: a test time that stands still between sleeps).
    private let runs: Bool
    /// How many times shorter a sleep is than the time it moves the clock by (1: real sleeps).
    private let scale: Double
    /// Whether only sleeps move it (a simulated clock, ``init(simulatedFrom:speed:)``).
    private let simulated: Bool
    /// Time skipped by shortened sleeps, in seconds.
    private let skipped = Skipped()

    private final class Skipped: Sendable {
        let seconds = Mutex(0.0)
    }

    /// The clock the environment asks for.
    public init(_ environment: [String: String]) throws(ContextProblem) {
        started = ContinuousClock.now
        var scale = 1.0
        let scaleText = environment["GYMCARD_TEST_TIME_SCALE"] ?? ""
        if !scaleText.isEmpty {
            guard let value = Double(scaleText), value >= 1, value <= 100_000 else {
                throw .invalidTestClock("GYMCARD_TEST_TIME_SCALE must be a number from 1 to 100000")
            }
            scale = value
        }
        self.scale = scale
        if let text = environment["GYMCARD_TEST_NOW"], !text.isEmpty {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw .invalidTestClock("GYMCARD_TEST_NOW is not an ISO 8601 time: \(text)")
            }
            origin = date
            // A fixed test time stands still; sleeps move it, scaled ones in less real time.
            runs = false
            simulated = !scaleText.isEmpty
        } else {
            origin = Date()
            runs = true
            simulated = false
        }
    }

    /// A simulated clock (`wait --demo`): it starts at `origin` and only sleeps move it, each by the whole
    /// time asked while lasting `speed` times less.
    public init(simulatedFrom origin: Date, speed: Double) {
        started = ContinuousClock.now
        simulated = true
        self.origin = origin
        runs = false
        scale = max(1, speed)
    }

    /// The current time.
    public var now: Date {
        var seconds = skipped.seconds.withLock { $0 }
        if runs {
            let elapsed = ContinuousClock.now - started
            seconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        return origin.addingTimeInterval(seconds)
    }

    /// Sleeps for `seconds` of this clock's time (cancellation ends it early, with an error). A test time
    /// that stands still stays still; a scaled one moves by the whole sleep.
    public func sleep(seconds: Double) async throws {
        let wanted = max(0, seconds)
        let real = runs || simulated ? wanted / scale : wanted
        try await Task.sleep(for: .milliseconds(Int64((real * 1000).rounded())))
        if simulated {
            skipped.seconds.withLock { $0 += wanted }
        } else if runs, scale != 1 {
            skipped.seconds.withLock { $0 += wanted - real }
        }
    }
}

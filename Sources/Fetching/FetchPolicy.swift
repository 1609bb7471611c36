import FoundationEssentials

/// How hard a fetch tries: time limits, size limit, retries.
public struct FetchPolicy: Sendable, Equatable {
    /// The limit for one request, start to last byte.
    public var timeoutSeconds: Double
    /// The limit for all attempts together, waits included.
    public var deadlineSeconds: Double
    /// How many times a transient failure is tried in all (1 = no retry).
    public var maximumAttempts: Int
    /// The first wait between attempts; each later wait doubles it.
    public var backoffSeconds: Double
    /// Bodies larger than this are refused.
    public var maximumBodyBytes: Int

    /// A policy; by default 10 s per request, 3 attempts within twice that, and 4 MB bodies at most.
    public init(
        timeoutSeconds: Double = 10, deadlineSeconds: Double? = nil, maximumAttempts: Int = 3,
        backoffSeconds: Double = 0.5, maximumBodyBytes: Int = 4_000_000
    ) {
        self.timeoutSeconds = timeoutSeconds
        self.deadlineSeconds = deadlineSeconds ?? timeoutSeconds * 2
        self.maximumAttempts = maximumAttempts
        self.backoffSeconds = backoffSeconds
        self.maximumBodyBytes = maximumBodyBytes
    }
}

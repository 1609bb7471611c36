import FoundationEssentials

/// One facility's reading as kept in the history: what the page said, when, and whether the facility
/// was open. A failed fetch is not a reading (it is a gap), never a zero.
public struct HistoryReading: Sendable, Equatable {
    /// Whether the facility was open when read.
    public enum Status: String, Sendable, CaseIterable {
        /// Open (or not known to be closed).
        case ok
        /// Closed: kept, but left out of the heatmap.
        case closed
    }

    /// The facility's key (`mccomas`).
    public var facility: String
    /// The platform's facility ID, when known (imported readings may lack it).
    public var facilityID: String?
    /// When gymcard fetched it (UTC, whole seconds).
    public var fetchedAt: Date
    /// The source's own "last updated" time, when the page gives one.
    public var sourceTime: Date?
    /// People inside.
    public var occupancy: Int
    /// Maximum occupancy.
    public var capacity: Int
    /// Open or closed.
    public var status: Status

    /// Creates a reading; times are kept to the whole second.
    public init(
        facility: String, facilityID: String? = nil, fetchedAt: Date, sourceTime: Date? = nil, occupancy: Int,
        capacity: Int, status: Status = .ok
    ) {
        self.facility = facility
        self.facilityID = facilityID
        self.fetchedAt = Date(timeIntervalSince1970: fetchedAt.timeIntervalSince1970.rounded(.down))
        self.sourceTime = sourceTime.map {
            Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down))
        }
        self.occupancy = occupancy
        self.capacity = capacity
        self.status = status
    }

    /// Percent full, 0–100 (not truncated: averages keep their precision).
    public var percent: Double {
        guard capacity > 0 else { return 0 }
        return min(100, max(0, Double(occupancy) * 100 / Double(capacity)))
    }
}

/// One try at collecting: its time, how it went, and why it failed.
public struct HistoryAttempt: Sendable, Equatable {
    /// How a collection attempt went.
    public enum Status: String, Sendable, CaseIterable {
        /// Every facility was read.
        case success
        /// Some facilities were read.
        case partial
        /// None was read: a gap.
        case failed
        /// Not tried: a sample had been taken moments before (the timer never samples more often).
        case skipped
    }

    /// When it was made (UTC, whole seconds).
    public var at: Date
    /// How it went.
    public var status: Status
    /// Why it failed, worded for a person (never an ID or a passphrase: these are occupancy errors).
    public var error: String?

    /// Creates an attempt.
    public init(at: Date, status: Status, error: String? = nil) {
        self.at = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
        self.status = status
        self.error = error
    }
}

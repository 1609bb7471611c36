import FoundationEssentials

/// What a facility's page counts: people (a head count), or only a percentage (TMU and Syracuse show
/// "45%" where other campuses show a number of people; ARCHITECTURE §12).
public enum OccupancyMeasure: String, Sendable, Equatable, Codable {
    /// People inside, out of a capacity.
    case people
    /// Only how full, in percent: no head count is known and none is invented.
    case percent
}

/// How full one facility is, as read off the page.
///
/// A percent-only reading keeps its percent in ``occupancy`` out of a ``capacity`` of 100, so that bars,
/// trends and thresholds work unchanged; what is shown or written as JSON says which it is.
public struct OccupancyReading: Sendable, Equatable {
    /// People inside (a percent for a percent-only reading).
    public var occupancy: Int
    /// Places left (never negative: over capacity reads as 0).
    public var remaining: Int
    /// Maximum occupancy (100 for a percent-only reading).
    public var capacity: Int
    /// People, or percent only.
    public var measure: OccupancyMeasure

    /// Creates a reading; `remaining` defaults to what the capacity leaves and is clamped at 0.
    public init(occupancy: Int, remaining: Int? = nil, capacity: Int) {
        self.occupancy = occupancy
        self.capacity = capacity
        self.remaining = max(0, remaining ?? capacity - occupancy)
        measure = .people
    }

    /// A reading of a page that shows only a percentage (clamped to 0…100).
    public static func percentOnly(_ percent: Int) -> OccupancyReading {
        var reading = OccupancyReading(occupancy: min(100, max(0, percent)), capacity: 100)
        reading.measure = .percent
        return reading
    }

    /// Whether a head count is known (not a percent-only reading).
    public var countsPeople: Bool { measure == .people }

    /// Occupancy over capacity, clamped to 0…1.
    public var fraction: Double {
        guard capacity > 0 else { return 0 }
        return min(1, max(0, Double(occupancy) / Double(capacity)))
    }

    /// Percent full, truncated as the app does (99.9 % shows 99), at most 100.
    public var percent: Int { Int(fraction * 100) }

    /// Percent full as it is, truncated, over 100 when more people are counted than the capacity
    /// (GoBoard's Scifres 31 of 25: 124); what a vendor campus shows.
    public var unclampedPercent: Int {
        guard capacity > 0 else { return 0 }
        return max(0, occupancy) * 100 / capacity
    }

    /// ``unclampedPercent`` with `overCapacity` (``OccupancySettings/showsOverCapacity``), else ``percent``.
    public func percent(overCapacity: Bool) -> Int { overCapacity ? unclampedPercent : percent }
}

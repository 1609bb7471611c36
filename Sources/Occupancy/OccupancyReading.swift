import FoundationEssentials

/// How full one facility is, as read off the page.
public struct OccupancyReading: Sendable, Equatable, Codable {
    /// People inside.
    public var occupancy: Int
    /// Places left (never negative: over capacity reads as 0).
    public var remaining: Int
    /// Maximum occupancy.
    public var capacity: Int

    /// Creates a reading; `remaining` defaults to what the capacity leaves and is clamped at 0.
    public init(occupancy: Int, remaining: Int? = nil, capacity: Int) {
        self.occupancy = occupancy
        self.capacity = capacity
        self.remaining = max(0, remaining ?? capacity - occupancy)
    }

    /// Occupancy over capacity, clamped to 0…1.
    public var fraction: Double {
        guard capacity > 0 else { return 0 }
        return min(1, max(0, Double(occupancy) / Double(capacity)))
    }

    /// Percent full, truncated as the app does (99.9 % shows 99).
    public var percent: Int { Int(fraction * 100) }
}

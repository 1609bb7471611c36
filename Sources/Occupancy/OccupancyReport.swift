import FoundationEssentials

/// One facility's line in a report: the value shown (fresh or last known), and why it is not fresh.
public struct FacilityStatus: Sendable, Equatable {
    /// How current the value is.
    public enum Status: String, Sendable, Codable {
        /// Read just now (or, from `--cached`, within the last 15 minutes).
        case ok
        /// The last known value, older, because the fetch failed.
        case stale
        /// No value at all.
        case unavailable
    }

    /// The facility.
    public var facility: Facility
    /// ok, stale or unavailable.
    public var status: Status
    /// The value shown; `nil` when unavailable.
    public var reading: OccupancyReading?
    /// When the value shown was observed.
    public var observedAt: Date?
    /// Why the value is not fresh, worded for a person.
    public var problem: String?

    /// Creates a status.
    public init(
        facility: Facility, status: Status, reading: OccupancyReading?, observedAt: Date?, problem: String?
    ) {
        self.facility = facility
        self.status = status
        self.reading = reading
        self.observedAt = observedAt
        self.problem = problem
    }
}

/// What `gymcard occupancy` shows: every configured facility, in order.
public struct OccupancyReport: Sendable, Equatable {
    /// When the report was made.
    public var observedAt: Date
    /// Facilities in display order.
    public var facilities: [FacilityStatus]
    /// Sample values, not live data (`--demo`).
    public var isDemo: Bool

    /// Creates a report.
    public init(observedAt: Date, facilities: [FacilityStatus], isDemo: Bool = false) {
        self.observedAt = observedAt
        self.facilities = facilities
        self.isDemo = isDemo
    }

    /// How complete the report is, which decides the exit status.
    public enum Completeness: Sendable, Equatable {
        /// Every facility fresh.
        case fresh
        /// Some shown stale or unavailable, at least one with a value.
        case partial
        /// No facility has a value.
        case nothing
    }

    /// How complete the report is.
    public var completeness: Completeness {
        if facilities.allSatisfy({ $0.status == .ok }) { return .fresh }
        if facilities.contains(where: { $0.reading != nil }) { return .partial }
        return .nothing
    }

    /// The app's debug values (McComas 230, War Memorial 700, Bouldering Wall 4) for the given facilities;
    /// facilities the app had no value for show half full.
    public static func demo(facilities: [Facility], now: Date) -> OccupancyReport {
        let sample = ["mccomas": 230, "war-memorial": 700, "bouldering-wall": 4]
        return OccupancyReport(
            observedAt: now,
            facilities: facilities.map { facility in
                let occupancy = sample[facility.key] ?? facility.capacity / 2
                return FacilityStatus(
                    facility: facility, status: .ok,
                    reading: OccupancyReading(occupancy: occupancy, capacity: facility.capacity),
                    observedAt: now,
                    problem: nil)
            },
            isDemo: true)
    }
}

import CivilTime
import FoundationEssentials
import OpeningHours

/// One facility's line in a report: the value shown (fresh or last known), and why it is not fresh.
public struct FacilityStatus: Sendable, Equatable {
    /// How current the value is.
    public enum Status: String, Sendable, Codable {
        /// Read just now (or, from `--cached`, within the last 15 minutes).
        case ok
        /// The last known value, because the fetch failed (or, from `--cached`, one older than 15 minutes
        /// or dated ahead of now by a clock that was wrong).
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
    /// Open, closed or unknown when the report was made (from the opening hours).
    public var opening: OpeningState
    /// The source's own time of a fresh value ("last updated" on a campus's full page, each GoBoard zone's
    /// `LastUpdatedDateAndTime`), when it says.
    public var sourceTime: Date?
    /// The source itself flags the facility closed (GoBoard `IsClosed`, Waitz `isOpen: false`), whatever
    /// count it still carries: ``opening`` is then closed, and stays closed when hours are applied.
    public var closedAtSource = false
    /// The source lists the facility but gives no figure for it now (a null count, capacity 0, Waitz's
    /// `isAvailable: false`): said as "no figure", never read as 0 %.
    public var noFigure = false

    /// Creates a status.
    public init(
        facility: Facility, status: Status, reading: OccupancyReading?, observedAt: Date?, problem: String?,
        opening: OpeningState = .unknown
    ) {
        self.facility = facility
        self.status = status
        self.reading = reading
        self.observedAt = observedAt
        self.problem = problem
        self.opening = opening
    }

    /// Whether it needs no value to be complete: a facility known to be closed.
    var isSettled: Bool { status == .ok || opening.isClosed }
}

/// What `gymcard occupancy` shows: every configured facility, in order.
public struct OccupancyReport: Sendable, Equatable {
    /// When the report was made.
    public var observedAt: Date
    /// Facilities in display order.
    public var facilities: [FacilityStatus]
    /// Sample values, not live data (`--demo`).
    public var isDemo: Bool
    /// Percentages over 100 are shown as they are (a GoBoard or Waitz campus: Purdue's Scifres 31 of 25 is
    /// 124 %); a Fusion campus keeps the app's rule, clamped to 100.
    public var showsOverCapacity = false

    /// Creates a report.
    public init(observedAt: Date, facilities: [FacilityStatus], isDemo: Bool = false) {
        self.observedAt = observedAt
        self.facilities = facilities
        self.isDemo = isDemo
    }

    /// The percent shown for `reading`: ``OccupancyReading/unclampedPercent`` where the report shows over
    /// capacity as it is, else ``OccupancyReading/percent``.
    public func percent(_ reading: OccupancyReading) -> Int {
        reading.percent(overCapacity: showsOverCapacity)
    }

    /// How old a source's count may be before a line says so: GoBoard counts are typed in by hand about
    /// hourly (SHAPES.md §1), so an hour and a half is the usual; older is worth a word.
    public static let oldCountSeconds: Double = 90 * 60

    /// "count from 3 h ago" when the source's own time of the value shown is older than
    /// ``oldCountSeconds`` at `now`; `nil` otherwise.
    public static func oldCount(_ status: FacilityStatus, now: Date) -> String? {
        guard let sourceTime = status.sourceTime, now.timeIntervalSince(sourceTime) > oldCountSeconds else {
            return nil
        }
        return "count from " + Age.ago(from: sourceTime, to: now)
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

    /// How complete the report is. A facility known to be closed is complete without a value.
    public var completeness: Completeness {
        if facilities.allSatisfy(\.isSettled) { return .fresh }
        if facilities.contains(where: { $0.reading != nil || $0.opening.isClosed }) { return .partial }
        return .nothing
    }

    /// The report with each facility's opening state at the time it was made; facilities without hours
    /// stay unknown.
    public func applying(_ hours: [String: FacilityHours], zone: LocalTimeZone) -> OccupancyReport {
        var report = self
        for index in report.facilities.indices {
            let key = report.facilities[index].facility.key
            let state = hours[key]?.state(at: observedAt, zone: zone) ?? .unknown
            // The source's own "closed" outweighs hours that say open; hours that say closed know when it
            // opens.
            report.facilities[index].opening =
                report.facilities[index].closedAtSource && !state.isClosed ? .closed(opensAt: nil) : state
        }
        return report
    }

    /// The app's debug values (McComas 230, War Memorial 700, Bouldering Wall 4) for the given facilities;
    /// facilities the app had no value for show half full. `step` (one per `--watch` refresh) moves each value a few percent up and down around the sample,
    /// so that a preview of `--watch` shows what a redraw looks like.
    public static func demo(facilities: [Facility], now: Date, step: Int = 0) -> OccupancyReport {
        let sample = ["mccomas": 230, "war-memorial": 700, "bouldering-wall": 4]
        let drift = [0, 2, 4, 2, 0, -2, -4, -2][step % 8]
        return OccupancyReport(
            observedAt: now,
            facilities: facilities.map { facility in
                let base = sample[facility.key] ?? facility.capacity / 2
                let occupancy = min(facility.capacity, max(0, base + facility.capacity * drift / 100))
                return FacilityStatus(
                    facility: facility, status: .ok,
                    reading: OccupancyReading(occupancy: occupancy, capacity: facility.capacity),
                    observedAt: now,
                    problem: nil)
            },
            isDemo: true)
    }
}

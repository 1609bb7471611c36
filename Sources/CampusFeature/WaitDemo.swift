import CivilTime
import Fetching
import FoundationEssentials
import GymcardCore
import Occupancy
import OpeningHours

/// `wait --demo`: the real wait loop on ``DemoGym``'s readings and hours, over a simulated evening. The
/// simulated clock starts at the facility's busiest demo half hour today and runs ``speed`` times faster
/// than real time, so that a wait that would take hours ends in seconds (the facility closing at the end
/// of the demo day ends it at the latest). Nothing is fetched, stored or recorded.
public struct WaitDemo: Sendable {
    /// The facility waited for.
    public let facility: Facility
    /// The facilities' zone.
    public let zone: LocalTimeZone
    /// The simulated clock.
    public let clock: CurrentTime
    /// When the simulated wait starts.
    public let start: Date
    private let hours: FacilityHours

    /// How many times faster than real time the simulated clock runs: a poll every 2 minutes comes every
    /// tenth of a second, and two simulated hours take six seconds.
    public static let speed = 1200.0

    /// A demo wait for `facility`, today in the campus's zone (`now` from `context`).
    public init(facility: Facility, settings: OccupancySettings, context: Context) throws(ContextProblem) {
        self.facility = facility
        zone = try context.zone(settings.timeZone)
        let today = zone.day(of: context.clock.now)
        hours = DemoGym.hours(facility, days: (-1...1).map { today.adding(days: $0) }, zone: zone)
        let opening = hours[today].intervals.first
        let halfHours =
            opening.map { opening in
                stride(from: 0, to: opening.closes.timeIntervalSince(opening.opens), by: 1800).map {
                    opening.opens.addingTimeInterval($0)
                }
            } ?? []
        let zone = zone
        start =
            halfHours.max {
                DemoGym.percent(facility, at: $0, zone: zone) < DemoGym.percent(facility, at: $1, zone: zone)
            }
            ?? context.clock.now
        clock = CurrentTime(simulatedFrom: start, speed: Self.speed)
    }

    /// Runs `loop` on the demo readings; `show` gets the status line (`DEMO 6:42 PM · McComas Hall …`)
    /// every 15 simulated seconds when `redraws`, else once a poll.
    public func run(_ loop: WaitLoop, redraws: Bool, show: (String) -> Void) async throws(FetchError)
        -> WaitLoop.End
    {
        let (facility, zone, clock, hours) = (facility, zone, clock, hours)
        return try await loop.run(
            next: { () async throws(FetchError) in
                let now = clock.now
                let reading = DemoGym.reading(facility, at: now, zone: zone)
                var outcome = OccupancyPoll.Outcome(
                    report: OccupancyReport(
                        observedAt: now,
                        facilities: [
                            FacilityStatus(
                                facility: facility, status: .ok, reading: reading, observedAt: now,
                                problem: nil)
                        ], isDemo: true
                    ).applying([facility.key: hours], zone: zone))
                outcome.hours = [facility.key: hours]
                return outcome
            }, clock: clock, redrawSeconds: redraws ? 15 : nil, warn: { _ in }
        ) { progress in
            show(
                "DEMO \(CivilLabels(zone: zone, now: clock.now).clock(clock.now))  "
                    + WaitLoop.describe(facility, progress, loop.condition))
        }
    }

    /// How the demo wait ended: `DEMO, a simulated Thursday from 6:00 PM to 8:14 PM: ` and the wait's own
    /// words.
    public func words(_ end: WaitLoop.End, _ condition: WaitCondition, timeout: String) -> String {
        let labels = CivilLabels(zone: zone, now: clock.now)
        return
            "DEMO, a simulated \(CivilLabels.weekdays[zone.day(of: start).weekday]) from \(labels.clock(start)) to "
            + "\(labels.clock(clock.now)): "
            + WaitLoop.words(end, facility, condition, labels, timeout: timeout)
    }
}

import CivilTime
import Fetching
import GymcardCore
import Occupancy

/// `wait` from its options to its end: the facility (one lookup, as every command has), the real loop or
/// ``WaitDemo``'s simulated evening, the end in words, and the notification.
public struct WaitSession: Sendable {
    /// The loop, for the facility chosen.
    public let loop: WaitLoop
    /// The campus's settings, narrowed to that facility (the poll fetches only it).
    public let settings: OccupancySettings

    /// A wait on `facility` (key, name or a unique prefix; `nil`: the campus's first).
    ///
    /// - Throws: ``FacilityLookupProblem``; ``WaitProblem`` for a number of people at a facility whose
    ///   page shows only a percentage.
    public init(
        settings: OccupancySettings, facility argument: String?, condition: WaitCondition,
        intervalSeconds: Int,
        timeoutSeconds: Int?
    ) throws {
        var settings = settings
        let facility = try argument.map { try settings.facilities(matching: $0)[0] } ?? settings.facilities[0]
        if case .people = condition.threshold, facility.measure == .percent {
            throw WaitProblem.onlyPercent(facility: facility.name)
        }
        settings.facilities = [facility]
        self.settings = settings
        loop = WaitLoop(
            facility: facility, condition: condition, intervalSeconds: intervalSeconds,
            timeoutSeconds: timeoutSeconds)
    }

    /// How a wait ended: the end, in words, and what its notification could not send.
    public struct Ending: Sendable {
        /// How it ended.
        public var end: WaitLoop.End
        /// The line that says so (`McComas Hall is at 24% (144/600), below 30% for 10 min`).
        public var message: String
        /// Warnings of notifications that failed.
        public var notificationWarnings: [String] = []
    }

    /// Waits (`demo`: on the simulated evening; nothing is fetched, recorded or notified). `show` gets the
    /// status line (every second while `redraws`, else once a poll), `warn` each new warning, `over` the
    /// moment the loop ends (before any notification); with `notify` the end is then sent as a desktop
    /// notification and an ntfy push. `timeout` is the timeout as given, for the words.
    public func run(
        _ context: Context, demo: Bool, notify: Bool, timeout: String, redraws: Bool,
        fetcher: () throws -> Fetcher, warn: (String) -> Void, show: (String) -> Void, over: () -> Void
    ) async throws -> Ending {
        let (facility, condition) = (loop.facility, loop.condition)
        let notifier = notify ? try Notifier(context: context) : nil
        if demo {
            let simulation = try WaitDemo(facility: facility, settings: settings, context: context)
            let end = try await simulation.run(loop, redraws: redraws, show: show)
            over()
            return Ending(end: end, message: simulation.words(end, condition, timeout: timeout))
        }
        var poll = try OccupancyPoll(settings: settings, context: context)
        poll.keepsUsualCurrent = false
        // Over capacity shown as `occupancy` shows it.
        let overCapacity = settings.showsOverCapacity
        let fetcher = try fetcher()
        let end = try await loop.run(
            poll: poll, fetcher: fetcher, clock: context.clock, redraws: redraws, warn: warn
        ) { progress in show(WaitLoop.describe(facility, progress, condition, overCapacity: overCapacity)) }
        over()
        let labels = CivilLabels(zone: poll.zone, now: context.clock.now)
        var ending = Ending(
            end: end,
            message: WaitLoop.words(
                end, facility, condition, labels, timeout: timeout, overCapacity: overCapacity))
        if let notifier {
            ending.notificationWarnings = await loop.notify(
                end, message: ending.message, notifier: notifier, fetcher: fetcher,
                run: ChildProcess.statusAndOutput)
        }
        return ending
    }
}

/// A wait that cannot be asked for.
public enum WaitProblem: Error, Equatable, CustomStringConvertible {
    /// A number of people at a facility whose page shows only a percentage.
    case onlyPercent(facility: String)

    /// What is wrong, for a person.
    public var description: String {
        switch self {
        case .onlyPercent(let facility): "\(facility) shows only a percentage, not a head count"
        }
    }
}

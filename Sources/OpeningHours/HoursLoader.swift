import CivilTime
import Fetching
import FoundationEssentials
import Storage

/// Each facility's opening hours over a run of local days: the config file's schedule and exceptions
/// first, then the RecSports hours service for facilities with a unit, through a per-day cache. A day the
/// service cannot answer falls back to the cache at any age (with a warning), then to unknown.
public struct HoursLoader: Sendable {
    /// Sources per facility.
    public var settings: HoursSettings
    /// The facilities' time zone (the service's times are local to it).
    public var zone: LocalTimeZone
    /// The per-day cache.
    public var cache: HoursCache
    /// The current time.
    public var now: Date

    /// Creates a loader.
    public init(settings: HoursSettings, zone: LocalTimeZone, cache: HoursCache, now: Date) {
        self.settings = settings
        self.zone = zone
        self.cache = cache
        self.now = now
    }

    /// What a load produced.
    public struct Outcome: Sendable {
        /// Hours by facility key.
        public var hours: [String: FacilityHours]
        /// Lines for stderr: days the service could not answer, and what was used instead.
        public var warnings: [String]
        /// Whether some day came from an old cached copy, or is unknown, because the service failed.
        public var isDegraded: Bool
        /// A fetched answer could not be cached (a full disk, a file in the way): the hours are right, the
        /// next run fetches again.
        public var saveFailure: StorageError?

        /// Creates an outcome (`--demo`: made-up hours, nothing lacking).
        public init(
            hours: [String: FacilityHours], warnings: [String] = [], isDegraded: Bool = false,
            saveFailure: StorageError? = nil
        ) {
            self.hours = hours
            self.warnings = warnings
            self.isDegraded = isDegraded
            self.saveFailure = saveFailure
        }
    }

    /// The days an answer about `start..<end` needs: from the day before (whose opening may run past
    /// midnight) to the day of `end`.
    public func days(from start: Date, to end: Date) -> [LocalDay] {
        let first = zone.day(of: start).adding(days: -1)
        let last = zone.day(of: end)
        return (first.number...max(first.number, last.number)).map(LocalDay.init(number:))
    }

    /// The days, among `days`, whose service answer is not cached fresh for `facilities`: an answer for
    /// yesterday or today is fresh for an hour, for a later day for six hours, for an earlier day always.
    public func daysToFetch(_ days: [LocalDay], for facilities: [String]) -> [LocalDay] {
        guard neededUnits(facilities, days: days) else { return [] }
        let today = zone.day(of: now)
        return days.filter { day in
            guard needsService(day, facilities) else { return false }
            guard let entry = cache.entry(for: day, source: source) else { return true }
            let age = now.timeIntervalSince(entry.fetchedAt)
            if age < -60 { return true }  // fetched "in the future": a clock was wrong
            if day.number < today.number - 1 { return false }
            return age >= (day.number > today.number ? 6 * 3600 : 3600)
        }
    }

    /// The hours from the config file and the cache alone (any age), without the network.
    public func cached(_ facilities: [String], days: [LocalDay]) -> Outcome {
        var answers: [LocalDay: [String: DayHours]] = [:]
        for day in days where needsService(day, facilities) {
            if let entry = cache.entry(for: day, source: source) { answers[day] = parsed(entry, day: day) }
        }
        return Outcome(
            hours: assemble(facilities, days: days, answers: answers), warnings: [], isDegraded: false)
    }

    /// Fetches the days the cache cannot answer fresh (all at once), keeping each good answer; a day that
    /// fails uses its cached copy whatever its age, else is unknown, and says so in one warning.
    public func load(_ facilities: [String], days: [LocalDay], fetcher: Fetcher) async -> Outcome {
        let toFetch = Set(daysToFetch(days, for: facilities))
        let base = settings.url
        let results = await withTaskGroup(of: DayAnswer.self) { group in
            for day in toFetch {
                group.addTask {
                    await DayAnswer(day: day, result: Self.fetch(day, base: base, fetcher: fetcher))
                }
            }
            var all: [LocalDay: Result<HTTPResponse, FetchError>] = [:]
            while let answer = await group.next() { all[answer.day] = answer.result }
            return all
        }
        var answers: [LocalDay: [String: DayHours]] = [:]
        var problems: [String] = []
        var fellBack: [Date] = []
        var unknownDays = 0
        var saveFailure: StorageError?
        let today = zone.day(of: now)
        for day in days where needsService(day, facilities) {
            guard let result = results[day] else {
                if let entry = cache.entry(for: day, source: source) {
                    answers[day] = parsed(entry, day: day)
                }
                continue
            }
            switch result {
            case .success(let response):
                do throws(HoursProblem) {
                    answers[day] = try RecSportsHoursResponse.parse(response.body, day: day, zone: zone)
                    let entry = HoursCache.Entry(
                        source: source, fetchedAt: now, body: String(decoding: response.body, as: UTF8.self))
                    // The hours are right without the cache: said once, as `events` says it.
                    do throws(StorageError) { try cache.save(entry, for: day, today: today) } catch {
                        saveFailure = saveFailure ?? error
                    }
                    continue
                } catch {
                    if !problems.contains(error.description) { problems.append(error.description) }
                }
            case .failure(let error):
                if case .cancelled = error { continue }
                // A 404 or 410 means the address is wrong: say where it came from.
                var problem = error.description
                if case .clientError = error { problem += "; " + settings.urlAdvice }
                if !problems.contains(problem) { problems.append(problem) }
            }
            if let entry = cache.entry(for: day, source: source) {
                answers[day] = parsed(entry, day: day)
                fellBack.append(entry.fetchedAt)
            } else {
                unknownDays += 1
            }
        }
        var warnings: [String] = []
        if !problems.isEmpty {
            var what: [String] = []
            if let oldest = fellBack.min() {
                what.append("using the copy fetched \(Age.ago(from: oldest, to: now))")
            }
            if unknownDays > 0 {
                what.append("\(unknownDays == 1 ? "a day" : "\(unknownDays) days") unknown")
            }
            warnings.append(
                "opening hours: " + problems.joined(separator: "; ") + " (" + what.joined(separator: ", ")
                    + ")")
        }
        return Outcome(
            hours: assemble(facilities, days: days, answers: answers), warnings: warnings,
            isDegraded: !problems.isEmpty, saveFailure: saveFailure)
    }

    private var source: String { settings.url.absoluteString }

    /// One day's answer from the service.
    private struct DayAnswer: Sendable {
        var day: LocalDay
        var result: Result<HTTPResponse, FetchError>
    }

    private static func fetch(_ day: LocalDay, base: URL, fetcher: Fetcher) async -> Result<
        HTTPResponse, FetchError
    > {
        do {
            return .success(
                try await fetcher.fetch(
                    RecSportsHoursResponse.request(base: base, day: day), expecting: .json))
        } catch {
            return .failure(error)
        }
    }

    private func neededUnits(_ facilities: [String], days: [LocalDay]) -> Bool {
        days.contains { needsService($0, facilities) }
    }

    /// Whether some facility's hours on `day` come from the service (no config exception or weekly hours
    /// answer for it).
    private func needsService(_ day: LocalDay, _ facilities: [String]) -> Bool {
        facilities.contains { key in
            guard let source = settings.sources[key], source.unit != nil else { return false }
            return source.schedule.hours(on: day, zone: zone) == nil
        }
    }

    private func parsed(_ entry: HoursCache.Entry, day: LocalDay) -> [String: DayHours]? {
        try? RecSportsHoursResponse.parse(Data(entry.body.utf8), day: day, zone: zone)
    }

    private func assemble(_ facilities: [String], days: [LocalDay], answers: [LocalDay: [String: DayHours]])
        -> [String: FacilityHours]
    {
        var result: [String: FacilityHours] = [:]
        for key in facilities {
            var hours = FacilityHours()
            guard let source = settings.sources[key] else {
                result[key] = hours
                continue
            }
            for day in days {
                if let fixed = source.schedule.hours(on: day, zone: zone) {
                    hours.days[day] = fixed
                } else if let unit = source.unit, let answer = answers[day]?[unit] {
                    hours.days[day] = answer
                }
            }
            result[key] = hours
        }
        return result
    }
}

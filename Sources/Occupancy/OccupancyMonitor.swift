import CivilTime
import Fetching
import FoundationEssentials
import OpeningHours
import Storage

/// Fetches every facility at once, falls back to the last known values, and keeps the state file current.
public struct OccupancyMonitor: Sendable {
    /// Endpoint and facilities.
    public var settings: OccupancySettings
    /// The HTTP fetcher.
    public var fetcher: Fetcher
    /// Where last-known values live.
    public var stateFile: OccupancyStateFile
    /// The clock (tests choose it).
    public var now: @Sendable () -> Date
    /// The facilities' zone, in which the page's own "last updated" clock is read.
    public var zone: LocalTimeZone

    /// A stored value counts as current for this long (the app reused one for at most 15 minutes); an
    /// older one is shown stale with its age, however old.
    public static let freshSeconds: Double = 15 * 60

    /// Creates a monitor.
    public init(
        settings: OccupancySettings, fetcher: Fetcher, stateFile: OccupancyStateFile,
        now: @escaping @Sendable () -> Date = { Date() }, zone: LocalTimeZone = .system
    ) {
        self.zone = zone
        self.settings = settings
        self.fetcher = fetcher
        self.stateFile = stateFile
        self.now = now
    }

    /// The result of a refresh: the report, warnings for stderr, and a state-file failure if any.
    public struct Refresh: Sendable {
        /// What to show.
        public var report: OccupancyReport
        /// One line per problem (a facility that failed, a corrupt state file), for stderr.
        public var warnings: [String]
        /// Saving the new readings failed (a full disk): shown, but worth an exit status.
        public var saveFailure: StorageError?
    }

    /// How old an open zone's source count may be and still be what is there: GoBoard's counts are entered
    /// by hand about hourly (SHAPES.md), so one six hours old is shown stale (exit 75, `wait` waits on).
    /// Not a Fusion page's, whose "last updated" is a clock without a day.
    static let staleSourceSeconds: Double = 6 * 3600

    /// Fetches all facilities concurrently and merges with the last known values.
    ///
    /// - Throws: `FetchError.cancelled` when the task is cancelled (Ctrl-C); every other failure is a
    ///   facility shown stale or unavailable.
    public func refresh() async throws(FetchError) -> Refresh {
        let loaded = stateFile.load()
        var warnings = loaded.warning.map { [$0] } ?? []
        let results = await fetchAll()
        if Task.isCancelled { throw .cancelled }
        let observedAt = now()
        var fresh = OccupancyState()
        var facilities: [FacilityStatus] = []
        var failures: [(problem: String, name: String)] = []
        for (facility, result) in zip(settings.facilities, results) {
            switch result {
            case .success(let readout):
                var status = FacilityStatus(
                    facility: facility, status: .ok, reading: readout.reading, observedAt: observedAt,
                    problem: nil)
                status.sourceTime = readout.sourceTime(fetchedAt: observedAt, zone: zone)
                if readout.closed {
                    status.closedAtSource = true
                    status.opening = .closed(opensAt: nil)
                } else if settings.vendor != .fusion, let source = status.sourceTime,
                    observedAt.timeIntervalSince(source) > Self.staleSourceSeconds
                {
                    // Served now, but the source's own count is old: not what is there (ARCHITECTURE §12).
                    status.status = .stale
                    status.problem = "the source's count is from \(Age.ago(from: source, to: observedAt))"
                }
                var entry = OccupancyState.Entry(
                    id: facility.id, reading: readout.reading, observedAt: observedAt)
                entry.sourceTime = status.sourceTime
                entry.closedAtSource = readout.closed
                fresh.entries[facility.key] = entry
                facilities.append(status)
            case .failure(let problem):
                var status = Self.lastKnown(
                    facility, in: loaded.state, at: observedAt, problem: problem.description,
                    cachedOnly: false)
                status.noFigure = problem.noFigure
                facilities.append(status)
                let shown = status.observedAt.map {
                    " (showing its value from \(Age.ago(from: $0, to: observedAt)))"
                }
                failures.append((problem.description, facility.name + (shown ?? "")))
            }
        }
        // Three facilities failing the same way (offline, say) make one line, not three.
        var problems: [String] = []
        for failure in failures where !problems.contains(failure.problem) { problems.append(failure.problem) }
        for problem in problems {
            let names = failures.filter { $0.problem == problem }.map(\.name)
            // A campus of 35 zones failing at once is one short line, not 35 names (each zone's line says it).
            let listed =
                names.count > 3
                ? names.prefix(2).joined(separator: ", ") + " and \(names.count - 2) others"
                : names.joined(separator: ", ")
            warnings.append(listed + ": " + problem)
        }
        var saveFailure: StorageError?
        do { try stateFile.save(fresh) } catch { saveFailure = error }
        var report = OccupancyReport(observedAt: observedAt, facilities: facilities)
        report.showsOverCapacity = settings.showsOverCapacity
        return Refresh(report: report, warnings: warnings, saveFailure: saveFailure)
    }

    /// The report from the state file alone, without the network (`--cached`).
    public func cached() -> Refresh {
        Self.cached(settings: settings, stateFile: stateFile, now: now())
    }

    /// The report from the state file alone; needs no fetcher, so status bars never touch the network code.
    public static func cached(settings: OccupancySettings, stateFile: OccupancyStateFile, now at: Date)
        -> Refresh
    {
        let loaded = stateFile.load()
        let facilities = settings.facilities.map { facility in
            lastKnown(facility, in: loaded.state, at: at, problem: "no reading stored yet", cachedOnly: true)
        }
        var report = OccupancyReport(observedAt: at, facilities: facilities)
        report.showsOverCapacity = settings.showsOverCapacity
        return Refresh(report: report, warnings: loaded.warning.map { [$0] } ?? [], saveFailure: nil)
    }

    private static func lastKnown(
        _ facility: Facility, in state: OccupancyState, at time: Date, problem: String, cachedOnly: Bool
    ) -> FacilityStatus {
        guard let entry = state.entries[facility.key], entry.id.lowercased() == facility.id.lowercased()
        else {
            return FacilityStatus(
                facility: facility, status: .unavailable, reading: nil, observedAt: nil, problem: problem)
        }
        let age = time.timeIntervalSince(entry.observedAt)
        // Dated ahead of now: the clock was ahead when it was read (at boot, before NTP) or is behind now.
        // Its age is unknown, so it is never current; the next live reading replaces it.
        let datedAhead = -age > OccupancyState.clockSkewToleranceSeconds
        let current = cachedOnly && !datedAhead && age <= Self.freshSeconds
        let ageWords = Age.ago(from: entry.observedAt, to: time)
        let storedProblem =
            datedAhead
            ? "the stored reading is dated \(ageWords); the clock was wrong when it was read, or is now"
            : "the stored reading is from \(ageWords)"
        var status = FacilityStatus(
            facility: facility, status: current ? .ok : .stale, reading: entry.reading,
            observedAt: entry.observedAt, problem: current ? nil : cachedOnly ? storedProblem : problem)
        status.sourceTime = entry.sourceTime
        // The source's "closed" is part of the last good value: shown with it, stale or not, as the count is.
        if entry.closedAtSource {
            status.closedAtSource = true
            status.opening = .closed(opensAt: nil)
        }
        return status
    }

    /// What one facility's fetch gave: its reading, its source time, and the source's own "closed".
    struct Readout: Sendable {
        var reading: OccupancyReading
        /// The zone's own time (GoBoard).
        var sourceTime: Date?
        /// A Fusion page's "last updated" clock, made a time once the fetch time is known.
        var sourceClock: (hour: Int, minute: Int)?
        var closed = false

        func sourceTime(fetchedAt: Date, zone: LocalTimeZone) -> Date? {
            sourceTime
                ?? sourceClock.map { OccupancyMonitor.sourceTime($0, fetchedAt: fetchedAt, zone: zone) }
        }
    }

    /// Every facility's reading, in facility order: one request per facility, all at once (ARCHITECTURE §7),
    /// or one GET of the full page for a campus read by page, or of a vendor's list of every zone.
    private func fetchAll() async -> [Result<Readout, OccupancyFailure>] {
        if settings.vendor != .fusion { return await fetchZones() }
        guard settings.read == .page else { return await fetchFragments() }
        let request = HTTPRequest.get(settings.page, accept: ExpectedContent.htmlPage.acceptHeader)
        let page: String
        do {
            let response = try await fetcher.fetch(request, expecting: .htmlPage)
            page = String(decoding: response.body, as: UTF8.self)
        } catch {
            let failure = OccupancyFailure(describe(error))
            return settings.facilities.map { _ in .failure(failure) }
        }
        let clock = FusionPage.lastUpdated(in: page)
        return FusionPage.readings(in: page, for: settings.facilities).map { result in
            result.map { Readout(reading: $0, sourceClock: clock) }.mapError {
                OccupancyFailure(describe($0))
            }
        }
    }

    /// A GoBoard or Waitz campus: one GET for every zone (however many), each facility found by its zone's
    /// ID. A zone without a figure, or no longer listed, is a failure (its last value shown stale); a
    /// closed zone keeps the count it carries, flagged closed.
    private func fetchZones() async -> [Result<Readout, OccupancyFailure>] {
        let zones: [VendorZone]
        do {
            zones = try await VendorFeed.zones(
                settings.vendor, at: settings.page, fetcher: fetcher, zone: zone)
        } catch {
            let failure = OccupancyFailure(describe(error))
            return settings.facilities.map { _ in .failure(failure) }
        }
        let byID = Dictionary(zones.map { ($0.id, $0) }) { first, _ in first }
        return settings.facilities.map { facility in
            guard let found = byID[facility.id] else {
                return .failure(
                    OccupancyFailure(
                        "\(settings.vendor.vendor.displayName) no longer lists zone \(facility.id); add the campus"
                            + " again to see its zones (gymcard campus add)"))
            }
            guard let reading = found.reading else {
                var failure = OccupancyFailure(found.missingFigure?.description ?? "no figure")
                failure.noFigure = true
                return .failure(failure)
            }
            return .success(Readout(reading: reading, sourceTime: found.sourceTime, closed: found.isClosed))
        }
    }

    /// A page problem worded for this campus: the command that finds a changed ID names the campus.
    private func describe(_ problem: OccupancyPageProblem) -> String {
        problem.description(campus: settings.campus)
    }

    /// A fetch failure worded; a 404 or 410 says where the address came from.
    private func describe(_ error: FetchError) -> String {
        if case .clientError = error { return "\(error); \(settings.endpointAdvice)" }
        return error.description
    }

    /// The source's clock time as a date: today in the facilities' zone, or yesterday
    /// when that would be more than 5 minutes ahead of the fetch.
    static func sourceTime(_ clock: (hour: Int, minute: Int), fetchedAt: Date, zone: LocalTimeZone) -> Date {
        let day = zone.day(of: fetchedAt)
        let seconds = clock.hour * 3600 + clock.minute * 60
        let today = zone.date(of: day, secondOfDay: seconds)
        return today.timeIntervalSince(fetchedAt) > 300
            ? zone.date(of: day.adding(days: -1), secondOfDay: seconds) : today
    }

    /// One POST per facility, all at once, results in facility order.
    private func fetchFragments() async -> [Result<Readout, OccupancyFailure>] {
        await withTaskGroup(of: (Int, Result<Readout, OccupancyFailure>).self) { group in
            for (index, facility) in settings.facilities.enumerated() {
                group.addTask { (index, await fetch(facility)) }
            }
            var results = [Result<Readout, OccupancyFailure>](
                repeating: .failure(OccupancyFailure("not fetched")), count: settings.facilities.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    private func fetch(_ facility: Facility) async -> Result<Readout, OccupancyFailure> {
        // Waterloo's Fusion answers 500 without Referer and X-Requested-With (ARCHITECTURE §12); VT ignores them.
        let request = HTTPRequest.postForm(
            settings.endpoint,
            fields: [("facilityId", facility.id), ("occupancyDisplayType", settings.displayType)],
            accept: ExpectedContent.htmlPage.acceptHeader,
            headers: ["Referer": settings.page.absoluteString, "X-Requested-With": "XMLHttpRequest"])
        do {
            let response = try await fetcher.fetch(request, expecting: .htmlPage)
            let page = String(decoding: response.body, as: UTF8.self)
            do { return .success(Readout(reading: try FusionPage.reading(in: page, for: facility))) } catch {
                return .failure(OccupancyFailure(describe(error)))
            }
        } catch {
            // A 404 or 410 means the address is wrong: say where it came from.
            return .failure(OccupancyFailure(describe(error)))
        }
    }
}

/// A facility's fetch or parse failure, already worded.
struct OccupancyFailure: Error, CustomStringConvertible {
    var description: String
    /// The source answered and lists the facility, without a figure for it.
    var noFigure = false
    init(_ description: String) { self.description = description }
}

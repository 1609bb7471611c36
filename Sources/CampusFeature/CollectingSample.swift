import CivilTime
import Collector
import Fetching
import FoundationEssentials
import Glibc
import GymcardCore
import History
import Occupancy
import Spawning
import Storage
import Trends

extension Collecting {
    /// What a sample lacked: not recorded, partly fetched, or nothing fetched.
    public enum Shortfall: Error, Sendable, Equatable, CustomStringConvertible {
        /// Fetched, but not in the history: why.
        case notRecorded(String)
        /// Some facilities failed: their problems.
        case partly(String)
        /// Nothing was fetched: the problems.
        case nothing(String)

        /// One line for stderr.
        public var description: String {
            switch self {
            case .notRecorded(let why): "the sample was not recorded in the history: \(why)"
            case .partly(let problems): "collect: partly: \(problems)"
            case .nothing(let problems): "collect: nothing fetched: \(problems)"
            }
        }
    }

    /// One sample for the history, with the opening hours (a reading while closed is recorded closed):
    /// skipped (and recorded skipped) when the last was moments ago, before `fetcher()` is asked for the
    /// network. Returns what it lacked, `nil` when every facility was fetched and recorded.
    ///
    /// - Throws: `FetchError.cancelled` on Ctrl-C; the history's and the config file's problems.
    public static func sample(
        settings: OccupancySettings, context: Context, fetcher: () throws -> Fetcher
    ) async throws -> Shortfall? {
        if try skipsRecent(context, campus: settings.campus) { return nil }
        let outcome = try await OccupancyPoll(settings: settings, context: context).poll(
            fetcher: try fetcher())
        if let notRecorded = outcome.notRecorded { return .notRecorded(notRecorded) }
        let problems = outcome.fetchWarnings.joined(separator: "; ")
        switch outcome.attempt {
        case .success, .skipped: return nil
        case .partial: return .partly(problems)
        case .failed: return .nothing(problems)
        }
    }

    /// The `gymcard` beside the running binary (which may be gymcard-network), by its absolute path: what
    /// the timer runs.
    public static func installedExecutable() -> String {
        guard let executable = RunningExecutable.path else { return CommandLine.arguments[0] }
        return AtomicFile.directory(of: executable) + "/gymcard"
    }

    /// A warning when `executable` lies in a build folder, which a clean removes from under the timer.
    public static func buildFolderWarning(_ executable: String) -> String? {
        guard executable.contains("/.build/") else { return nil }
        return "warning: \(executable) is in a build folder; install gymcard (scripts/install) and run "
            + "--install from there, or the timer stops working when the folder is cleaned"
    }
}

extension Collecting.Status {
    /// Why collection looks stopped (the timer installed, the last sample over an hour old or missing),
    /// with where to look; `nil` when it does not.
    public var staleProblem: String? {
        guard isStale else { return nil }
        let age = report?.lastSample.map { "from \(Age.ago(from: $0, to: labels.now))" } ?? "missing"
        return "the timer is installed but the last sample is \(age); check "
            + "`systemctl --user status \(CollectorUnits.timerName)`"
    }
}

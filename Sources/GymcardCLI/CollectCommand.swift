import ArgumentParser
import CivilTime
import Collector
import FoundationEssentials
import Glibc
import GymcardCore
import History
import Occupancy
import Storage
import TerminalText
import Trends

/// `gymcard collect`: one quiet occupancy sample for the history, and the timer that takes one every 5
/// minutes, so "when to go" needs no server.
struct CollectCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Record one occupancy sample in the history (for timers); install or check the timer.",
        discussion: """
            Without options, fetches every facility once (with its opening hours, as occupancy does, so a \
            reading while closed is recorded closed), records the readings in the history and the \
            stored readings, and prints nothing; a failure is one line on stderr (exit 75 partly, 69 \
            nothing fetched, 74 not recorded). A sample taken less than 4 minutes after the previous one \
            (a --watch, a manual run) is skipped and recorded as skipped. --install writes a systemd user \
            service and timer (every 5 minutes, catching up after sleep) to \
            $XDG_CONFIG_HOME/systemd/user/ and enables it with systemctl --user; without systemd it says \
            how to enable them later and prints the crontab line instead. --uninstall removes them. \
            --status shows the last sample, samples per day over 14 days and the gaps; it exits 75 when \
            the timer is installed but the last sample is more than an hour old.
            """
    )

    @Flag(name: .long, help: "Install and enable the systemd user timer (every 5 minutes).")
    var install = false

    @Flag(name: .long, help: "Disable and remove the timer.")
    var uninstall = false

    @Flag(name: .long, help: "Show whether collection works: last sample, samples per day, gaps.")
    var status = false

    @OptionGroup var campus: CampusOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if [install, uninstall, status].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --install, --uninstall and --status")
        }
    }

    func run(in context: Context) async throws {
        if status { return try showStatus(context) }
        if install { return try installTimer(context) }
        if uninstall { return show(Collecting.uninstall(context: context, run: Self.run)) }
        let settings = try campus.settings(context)
        // Before the network (and the hand-over to gymcard-network): a sample moments ago is enough.
        if try Collecting.skipsRecent(context, campus: settings.campus) { return }
        let poll = try OccupancyPoll(settings: settings, context: context)
        let outcome: OccupancyPoll.Outcome
        do { outcome = try await poll.poll(fetcher: try network.fetcher(context)) } catch {
            throw Failure.silent(.interrupted)
        }
        if let notRecorded = outcome.notRecorded {
            throw Failure("the sample was not recorded in the history: \(notRecorded)", status: .ioError)
        }
        let problems = outcome.fetchWarnings.joined(separator: "; ")
        switch outcome.attempt {
        case .success, .skipped: return
        case .partial: throw Failure("collect: partly: \(problems)", status: .staleData)
        case .failed: throw Failure("collect: nothing fetched: \(problems)", status: .unavailable)
        }
    }

    private func installTimer(_ context: Context) throws {
        let executable = Self.installedExecutable()
        if executable.contains("/.build/") {
            Terminal.standardError.say(
                "warning: \(executable) is in a build folder; install gymcard (scripts/install) and run "
                    + "--install from there, or the timer stops working when the folder is cleaned")
        }
        do {
            show(
                try Collecting.install(
                    executable: executable, campus: campus.campus, context: context, run: Self.run))
        } catch { throw Failure("cannot write the timer: \(error)", status: .ioError) }
    }

    private func show(_ outcome: Collecting.TimerOutcome) {
        for line in outcome.said { Terminal.standardError.say(line) }
        if let line = outcome.crontabLine { print(line) }
    }

    private static func run(_ arguments: [String]) -> (status: Int32, output: String)? {
        ChildProcess.run(arguments).map { ($0.status, $0.output) }
    }

    /// The `gymcard` beside the running binary (this may be gymcard-network), by its absolute path.
    static func installedExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return AtomicFile.directory(of: executable) + "/gymcard"
    }

    private func showStatus(_ context: Context) throws {
        let status = try Collecting.status(context, settings: try campus.settings(context))
        // Paths and the last recorded error are not gymcard's own text.
        Terminal(environment: context.environment).printLines(status.lines.map(\.terminalSafe))
        if status.isStale {
            let now = status.labels.now
            throw Failure(
                "the timer is installed but the last sample is "
                    + (status.report?.lastSample.map { "from \(Age.ago(from: $0, to: now))" } ?? "missing")
                    + "; check `systemctl --user status \(CollectorUnits.timerName)`",
                status: .staleData)
        }
    }
}

extension String {
    /// The string padded with spaces on the right to `width`.
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}

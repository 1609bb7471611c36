import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard collect`: one quiet occupancy sample for the history, and the timer that takes one every 5 minutes.
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

    var fetchesAtOnce: Bool { !install && !uninstall && !status }

    func run(in context: Context) async throws {
        if status { return try showStatus(context) }
        if install {
            return show(
                try Collecting.install(
                    campus: campus.campus, context: context, run: ChildProcess.statusAndOutput,
                    warn: Terminal.standardError.say))
        }
        if uninstall {
            return show(Collecting.uninstall(context: context, run: ChildProcess.statusAndOutput))
        }
        let settings = try campus.settings(context)
        if let shortfall = try await Collecting.sample(
            settings: settings, context: context,
            fetcher: {
                try network.fetcher(context)
            })
        {
            throw shortfall
        }
    }

    private func show(_ outcome: Collecting.TimerOutcome) {
        for line in outcome.said { Terminal.standardError.say(line) }
        if let line = outcome.crontabLine { Terminal.standardOutput.line(line) }
    }

    private func showStatus(_ context: Context) throws {
        let status = try Collecting.status(context, settings: try campus.settings(context))
        // Paths and the last recorded error are not gymcard's own text.
        Terminal(environment: context.environment).printLines(status.lines.map(\.terminalSafe))
        if let problem = status.staleProblem { throw Failure(problem, status: .staleData) }
    }
}

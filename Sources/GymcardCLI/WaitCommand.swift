import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard wait`: block until a facility is quiet enough, then print one line and exit 0.
struct WaitCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until a facility is below a threshold (and stays there), then exit 0.",
        discussion: """
            Polls the facility every --interval (at least 1 minute; longer after errors), records every \
            poll in the history, and ends when the facility has been below --below for --for: it prints \
            one line ("McComas Hall is at 24% (144/600), below 30% for 10 min") and exits 0, so that \
            `gymcard wait --below 30% && notify-send go` works. On a terminal an updating status line \
            shows the current value, the time held and the next check (on standard error); piped, nothing \
            is printed before the final line. A repeated source reading counts once; a gap of more than \
            15 minutes between readings starts the hold again.

            Opening hours (see `gymcard hours`) end a wait that cannot succeed: a closed facility, or one \
            that closes before the condition could be met, exits 3 and says when it opens. Unknown hours \
            never stop a wait.

            --notify also sends a desktop notification (libnotify's notify-send, when installed) and a \
            push to the ntfy URL in the config file (notify.ntfy), when the wait ends; a notification \
            that fails is only a warning.

            --timeout takes any positive duration; polls stay at least a minute apart, so a timeout \
            under a minute is one check, then exit 124.

            Exit status: 0 met; 3 closed, or closes before it could be met; 124 --timeout passed (as GNU \
            timeout); 69 the occupancy source was unreachable when the timeout passed; 130 Ctrl-C.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The line to get under: a percentage (30%) or a number of people (120).", valueName: "level"))
    var below: WaitCondition.Threshold

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The facility to watch: key, name or a unique prefix (default: the first configured).",
            valueName: "facility"), completion: .facilities)
    var facility: String?

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "How long it must stay below, e.g. 10m (0: the first reading below).",
            valueName: "duration"))
    var hold = GivenDuration(seconds: 0, text: "0")

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give up after this long, e.g. 2h or 30s, with exit 124 (default: no limit).",
            valueName: "duration"))
    var timeout: GivenDuration?

    @Option(
        name: .long,
        help: ArgumentHelp("How often to check, at least 1m.", valueName: "duration"))
    var interval = GivenDuration(seconds: 120, text: "2m")

    @OptionGroup var campus: CampusOption

    @Flag(name: .long, help: "Also send a desktop notification and an ntfy push when the wait ends.")
    var notify = false

    @Flag(name: .long, help: "Wait on a simulated evening of a made-up gym, labelled DEMO, in seconds.")
    var demo = false

    func validate() throws {
        if let problem = below.problem { throw ValidationError("--below: \(problem)") }
        guard (60...3600).contains(interval.seconds) else {
            throw ValidationError(
                "--interval must be a duration from 1m to 1h, such as 2m (polling politely)")
        }
        guard hold.seconds <= 8 * 3600 else {
            throw ValidationError("--for must be a duration up to 8h, such as 10m")
        }
        if demo, notify { throw ValidationError("--demo sends no notification; leave out --notify") }
        if let timeout, timeout.seconds <= 0 {
            throw ValidationError("--timeout must be longer than 0, such as 2h")
        }
    }

    var fetchesAtOnce: Bool { !demo }

    func run(in context: Context) async throws {
        let session = try WaitSession(
            settings: try campus.settings(context), facility: facility,
            condition: WaitCondition(threshold: below, holdSeconds: Double(hold.seconds)),
            intervalSeconds: interval.seconds, timeoutSeconds: timeout?.seconds)
        let line = StatusLine(enabled: Terminal.standardError.isTerminal, write: Terminal.standardError.write)
        Interrupt.clearsStatusLine = line.enabled
        let ending = try await session.run(
            context, demo: demo, notify: notify, timeout: timeout?.text ?? "", redraws: line.enabled,
            fetcher: { try context.fetcher() },
            warn: {
                line.clear()
                Terminal.standardError.say($0)
            }, show: line.draw, over: line.clear)
        for warning in ending.notificationWarnings { Terminal.standardError.say("warning: " + warning) }
        try finish(ending.end, ending.message)
    }

    /// Prints the message of a wait that was met; the others end with their exit status.
    private func finish(_ end: WaitLoop.End, _ message: String) throws {
        switch end {
        case .met: Terminal.standardOutput.line(message.terminalSafe)
        case .closed, .closesFirst: throw Failure(message, status: .closed)
        case .timedOut: throw Failure(message, status: .timedOut)
        case .unreadable: throw Failure(message, status: .unavailable)
        }
    }
}

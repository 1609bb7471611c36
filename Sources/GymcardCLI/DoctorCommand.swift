import ArgumentParser
import GymcardCore
import JSONOutput
import TerminalText

/// `gymcard doctor`: what is set up, what loads, and what to do about what does not.
struct DoctorCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check gymcard's files, libraries, config, campus and collection timer, and say what to do.",
        discussion: """
            Each line is a check: ok; note (not set up, or an optional part missing: gymcard works, with \
            less); or problem (something to fix). A note or problem says what to do. The checks: where \
            gymcard keeps its files (the stored card's folder 0700 and file 0600, never opened: no ID is \
            shown); which optional libraries load (libzbar, the zxing reader, libheif, libwebp, libtiff, \
            libzint, libzip), each through the loader the command that needs it uses; whether the config \
            file is valid; the campus, time zone and addresses in use; whether the collection timer runs \
            (the systemd user timer `collect --install` writes, or a crontab line); and when the history \
            last recorded.

            doctor does not use the network: it shows the addresses in use but not whether they answer \
            (`gymcard occupancy` and `gymcard events` do). The exit status is 0 when no check found a \
            problem, 1 when one did.

            --json prints one object: ok (no problem) and checks, each with topic, name, status (ok, \
            note or problem), detail and advice (null when there is nothing to do).
            """
    )

    @Flag(name: .long, help: "Print as one JSON object.")
    var json = false

    func run(in context: Context) throws {
        let checks = Doctor.checks(context) { arguments in
            ChildProcess.run(arguments).map { ($0.status, $0.output) }
        }
        let problems = checks.filter { $0.status == .problem }.count
        if json {
            print(JSONText.line(Report(ok: problems == 0, checks: checks.map(Report.Entry.init))))
        } else {
            var lines: [String] = []
            var topic = ""
            for check in checks {
                if check.topic != topic {
                    topic = check.topic
                    lines.append(Self.headings[topic] ?? topic)
                }
                let status = check.status.rawValue
                lines.append(
                    "  " + status + String(repeating: " ", count: max(1, 9 - status.count)) + check.name
                        + ": "
                        + check.detail.terminalSafe + (check.advice.map { "; " + $0.terminalSafe } ?? ""))
            }
            lines.append("The network was not used: the addresses above were not tried.")
            lines.append(
                problems == 0
                    ? "No problems found."
                    : "\(problems) \(problems == 1 ? "problem" : "problems") found: see the lines marked problem."
            )
            Terminal(environment: context.environment).printLines(lines)
        }
        if problems > 0 { throw Failure.silent(.nothingFound) }
    }

    private static let headings = [
        "files": "Files", "libraries": "Libraries", "config": "Configuration", "campus": "Campus",
        "collection": "Collection", "history": "History",
    ]

    /// What `--json` prints.
    private struct Report: Encodable {
        struct Entry: Encodable {
            var topic: String
            var name: String
            var status: String
            var detail: String
            @ExplicitNull var advice: String?

            init(_ check: Doctor.Check) {
                topic = check.topic
                name = check.name
                status = check.status.rawValue
                detail = check.detail
                advice = check.advice
            }
        }

        var ok: Bool
        var checks: [Entry]
    }
}

import CampusFeature
import CardFeature
import GymcardCore
import JSONOutput
import TerminalText

/// `doctor`'s checks as a person reads them (a heading per topic, a line per check, a summary) or as one
/// JSON object; whether any check found a problem decides the exit status.
public struct DoctorReport: Sendable {
    /// The checks, in the order they ran.
    public var checks: [Doctor.Check]

    /// A report of `checks`.
    public init(_ checks: [Doctor.Check]) { self.checks = checks }

    /// How many checks found a problem.
    public var problems: Int { checks.filter { $0.status == .problem }.count }

    /// The text: each topic's heading, then `  <status>  <name>: <detail>; <advice>`, then what the
    /// network had to do with it and the count of problems. Details and advice carry paths and config
    /// values: they are made terminal-safe.
    public var lines: [String] {
        var lines: [String] = []
        var topic = ""
        for check in checks {
            if check.topic != topic {
                topic = check.topic
                lines.append(Self.headings[topic] ?? topic)
            }
            let status = check.status.rawValue
            lines.append(
                "  " + status + String(repeating: " ", count: max(1, 9 - status.count)) + check.name + ": "
                    + check.detail.terminalSafe + (check.advice.map { "; " + $0.terminalSafe } ?? ""))
        }
        lines.append("The network was not used: the addresses above were not tried.")
        lines.append(
            problems == 0
                ? "No problems found."
                : "\(problems) \(problems == 1 ? "problem" : "problems") found: see the lines marked problem."
        )
        return lines
    }

    /// `--json`: one object, `ok` (no problem) and `checks`, each with topic, name, status, detail and
    /// advice (null when there is nothing to do).
    public var json: String {
        JSONText.line(Object(ok: problems == 0, checks: checks.map(Object.Entry.init)))
    }

    private static let headings = [
        "files": "Files", "libraries": "Libraries", "config": "Configuration", "campus": "Campus",
        "collection": "Collection", "history": "History",
    ]

    private struct Object: Encodable {
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

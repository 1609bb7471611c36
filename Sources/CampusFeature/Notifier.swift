import Configuration
import Fetching
import FoundationEssentials
import GymcardCore

/// `wait --notify`: a desktop notification through libnotify's `notify-send` when it is installed, and a
/// push to an ntfy-style URL when the config file names one:
///
/// ```json
/// "notify": { "ntfy": "https://ntfy.sh/my-gym-topic", "priority": 4 }
/// ```
///
/// ntfy takes a POST of the message to `<server>/<topic>` with `Title`, `Priority` (1–5) and `Tags`
/// headers. A notification that fails is a warning, never the command's failure.
public struct Notifier: Sendable {
    /// The ntfy topic URL, when one is set.
    public var ntfy: URL?
    /// ntfy's priority for a met condition, 1–5 (default 4, "high").
    public var priority = 4
    /// Runs a program and gives its exit status and output, or `nil` when it is not installed.
    public typealias Run = ([String]) -> (status: Int32, output: String)?

    private struct File: Decodable {
        var notify: Section?
    }

    private struct Section: Decodable {
        var ntfy: String?
        var priority: Int?
    }

    /// Reads the config file's `notify` section.
    public init(context: Context) throws(ConfigFileProblem) {
        guard let file = try context.config.read() else { return }
        let section: Section?
        do { section = try JSONDecoder().decode(File.self, from: file).notify } catch {
            throw context.config.problem(ConfigProblem(ConfigProblem.describe(error)))
        }
        guard let section else { return }
        do throws(ConfigProblem) {
            if let text = section.ntfy { ntfy = try ConfigProblem.url(text, key: "notify.ntfy") }
            if let value = section.priority {
                guard (1...5).contains(value) else { throw ConfigProblem("notify.priority must be 1 to 5") }
                priority = value
            }
        } catch { throw context.config.problem(error) }
    }

    /// Sends `title` and `message` both ways; returns one warning per way that failed. `urgent` is the
    /// news waited for (normal urgency, the configured ntfy priority); otherwise low and priority 3.
    public func send(title: String, message: String, urgent: Bool, fetcher: Fetcher?, run: Run) async
        -> [String]
    {
        var warnings: [String] = []
        if let outcome = run([
            "notify-send", "-a", "gymcard", "-u", urgent ? "normal" : "low", title, message,
        ]),
            outcome.status != 0
        {
            let detail =
                outcome.output.split(separator: "\n").first.map(String.init) ?? "exit \(outcome.status)"
            warnings.append("the desktop notification failed (notify-send: \(detail))")
        }
        if let ntfy, let fetcher {
            let request = HTTPRequest.postText(
                ntfy, text: message, accept: "application/json, */*;q=0.1",
                headers: ["Title": title, "Priority": "\(urgent ? priority : 3)", "Tags": "muscle"])
            do { _ = try await fetcher.fetch(request, expecting: .anything) } catch {
                warnings.append("the push to \(ntfy.host ?? ntfy.absoluteString) failed: \(error)")
            }
        }
        return warnings
    }
}

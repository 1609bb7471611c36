import Configuration
import FoundationEssentials

/// Where the events come from: ARCHITECTURE §8's default, then the config file's `events.url`, then
/// `GYMCARD_EVENTS_URL`.
public struct EventsSettings: Sendable, Equatable {
    /// The feed's address (Engage RSS or iCalendar).
    public var url: URL
    /// Where ``url`` came from.
    public var origin: SettingOrigin

    // A literal URL that parses.
    // swift-format-ignore: NeverForceUnwrap
    /// Virginia Tech RecSports' GobblerConnect feed.
    public static let virginiaTech = EventsSettings(
        url: URL(string: "https://gobblerconnect.vt.edu/organization/www_recsports_vt_edu/events.rss")!)

    /// Creates settings.
    public init(url: URL, origin: SettingOrigin = .builtIn) {
        self.url = url
        self.origin = origin
    }

    /// The keys of the config file's `events` section.
    public static let configShape = ConfigShape.object(["url": .value])

    private struct File: Decodable {
        var events: Section?
    }

    private struct Section: Decodable {
        var url: String?
    }

    /// The settings from the config file's bytes (when there is one) and the environment.
    ///
    /// - Throws: ``ConfigProblem`` naming the key that is wrong.
    public static func resolve(configFile: Data?, environment: [String: String]) throws(ConfigProblem)
        -> EventsSettings
    {
        var settings = EventsSettings.virginiaTech
        if let configFile {
            let file: File
            do { file = try JSONDecoder().decode(File.self, from: configFile) } catch {
                throw ConfigProblem(ConfigProblem.describe(error))
            }
            if let text = file.events?.url {
                settings.url = try ConfigProblem.url(text, key: "events.url")
                settings.origin = .configFile(key: "events.url")
            }
        }
        if let text = environment["GYMCARD_EVENTS_URL"], !text.isEmpty {
            settings.url = try ConfigProblem.url(text, environmentVariable: "GYMCARD_EVENTS_URL")
            settings.origin = .environment(variable: "GYMCARD_EVENTS_URL")
        }
        return settings
    }
}

import Configuration
import FoundationEssentials
import GymcardCore

extension ConfigFile {
    /// The config file's sections the card's use cases read, for the program's whole shape of the file.
    public static let cardSections: [String: ConfigShape] = ["show": ShowSettings.configShape]
}

/// The config file's `show` section: how the full-screen card behaves.
///
/// ```json
/// "show": { "brightness": false }
/// ```
public struct ShowSettings: Sendable, Equatable {
    /// Whether the laptop's backlight goes to full while the card fills the screen (default true).
    public var brightness = true

    /// The keys of the section.
    public static let configShape = ConfigShape.object(["brightness": .value])

    private struct File: Decodable {
        var show: Section?
    }

    private struct Section: Decodable {
        var brightness: Bool?
    }

    /// The defaults.
    public init() {}

    /// The section of `context`'s config file (the defaults when there is none).
    ///
    /// - Throws: ``ConfigFileProblem`` naming `show.brightness` when it is not `true` or `false`.
    public init(context: Context) throws(ConfigFileProblem) {
        guard let file = try context.config.read() else { return }
        let section: Section?
        do { section = try JSONDecoder().decode(File.self, from: file).show } catch {
            throw context.config.problem(ConfigProblem(ConfigProblem.describe(error)))
        }
        if let value = section?.brightness { brightness = value }
    }
}

import GymcardCore
import Occupancy

/// What a shell's Tab offers after `--campus` and after a facility (`trends <facility>`,
/// `wait --facility`): read from the config file alone, never the network or the history, so that it is
/// as quick as reading one small file. It is quiet: a config file that cannot be read offers the built-in
/// campus and its facilities, never an error in the middle of a command line.
public enum CompletionCandidates {
    /// Every campus name: `vt`, then the config file's profiles.
    public static func campuses(environment: [String: String]) -> [String] {
        guard let context = try? Context(environment: environment, online: nil, warn: { _ in }),
            let listings = try? CampusSetup(context: context).listings()
        else { return [CampusProfile.builtInName] }
        return listings.campuses.map(\.name)
    }

    /// The keys, then the names, of the facilities of the campus `words` (the command line) name with
    /// `--campus`, else of the campus in use.
    public static func facilities(words: [String], environment: [String: String]) -> [String] {
        let campus = campus(in: words)
        let settings =
            (try? Context(environment: environment, online: nil, warn: { _ in })).flatMap {
                try? CampusSetup(context: $0).settings(campus: campus)
            } ?? .virginiaTech
        return settings.facilities.map(\.key) + settings.facilities.map(\.name)
    }

    /// The value of the last `--campus <name>` or `--campus=<name>` in `words`.
    static func campus(in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word == "--campus", index + 1 < words.count, !words[index + 1].isEmpty {
                found = words[index + 1]
            } else if word.hasPrefix("--campus=") {
                found = String(word.dropFirst("--campus=".count))
            }
        }
        return found
    }
}

import ArgumentParser
import FoundationEssentials
import GymcardCore
import Occupancy
import Storage

/// `--campus <name>` for the commands about occupancy: which campus's facilities, history and hours.
/// Without it, the config file's `campus` (set by `gymcard campus use`), else Virginia Tech (`vt`).
struct CampusOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The campus: vt (built in) or one added with `gymcard campus add` (default: the one in use).",
            valueName: "name"))
    var campus: String?

    func validate() throws {
        if let campus, campus != CampusProfile.builtInName, !CampusProfile.isValidName(campus) {
            throw ValidationError("--campus takes a campus name such as vt or ucsc (see gymcard campus list)")
        }
    }

    /// The occupancy settings of the campus asked for; a campus that is not in the config file is a usage
    /// error (64) naming the known ones.
    func settings(_ context: Context) throws -> OccupancySettings {
        if let campus, campus != CampusProfile.builtInName {
            let file = try context.config.read()
            let names: [String]
            do { names = try OccupancySettings.profileNames(configFile: file) } catch {
                throw context.config.problem(error)
            }
            guard names.contains(campus) else {
                throw Failure(CampusProfile.unknownMessage(campus, profiles: names), status: .usage)
            }
        }
        return try context.config.occupancySettings(campus: campus)
    }
}

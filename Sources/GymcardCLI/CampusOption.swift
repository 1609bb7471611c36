import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

/// `--campus <name>` for the commands about occupancy: which campus's facilities, history and hours.
/// Without it, the config file's `campus` (set by `gymcard campus use`), else Virginia Tech (`vt`).
struct CampusOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The campus: vt (built in) or one added with `gymcard campus add` (default: the one in use).",
            valueName: "name"), completion: .campuses)
    var campus: String?

    func validate() throws {
        if let campus, campus != CampusProfile.builtInName, !CampusProfile.isValidName(campus) {
            throw ValidationError("--campus takes a campus name such as vt or ucsc (see gymcard campus list)")
        }
    }

    /// The settings of the campus asked for; one not in the config file is a usage error (64) naming the known ones.
    func settings(_ context: Context) throws -> OccupancySettings {
        try CampusSetup(context: context).settings(campus: campus)
    }
}

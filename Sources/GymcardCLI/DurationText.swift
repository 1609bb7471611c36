import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

/// A duration option (`90m`, `2h30m`, `30s`), parsed once; each command checks its own range in `validate()`.
extension GivenDuration: ExpressibleByArgument {
    /// The duration an option's value writes.
    public init?(argument: String) { self.init(argument) }

    /// As `--help` shows a default: as written.
    public var defaultValueDescription: String { text }
}

/// `--below`: a percentage (`30%`) or a number of people (`120`).
extension WaitCondition.Threshold: ExpressibleByArgument {
    /// The threshold an option's value writes.
    public init?(argument: String) { self.init(text: argument) }
}

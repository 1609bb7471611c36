import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

extension CommandNames {
    /// `command`'s name and its subcommands', from argument-parser's definitions.
    init(_ command: any ParsableCommand.Type) {
        self.init(name: command._commandName, subcommands: command.configuration.subcommands.map(Self.init))
    }
}

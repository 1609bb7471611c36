import CampusFeature
import CardFeature
import Configuration
import GymcardCore

extension ConfigFile {
    /// Every key gymcard's config file may hold: the sections each feature reads. The entry point gives
    /// it to the context (unknown keys are warned about); doctor lists them.
    public static let gymcardShape = shape(of: [campusSections, cardSections])
}

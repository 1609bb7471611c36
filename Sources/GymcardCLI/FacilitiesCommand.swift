import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard facilities`: the configured facilities, or (with `--discover`) those on the occupancy page.
struct FacilitiesCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "facilities",
        abstract: "List the configured facilities, or discover their IDs from the occupancy page.",
        discussion: """
            Without options, lists the facilities gymcard shows, with their IDs and capacities (defaults, \
            or the config file's occupancy.facilities). With --discover, reads the full occupancy page and \
            lists every facility card on it, so that an ID the platform changed can be put in the config \
            file without a new gymcard.
            """
    )

    @Flag(name: .long, help: "Read the facility IDs and names off the full occupancy page.")
    var discover = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var campus: CampusOption

    @OptionGroup var network: NetworkOptions

    var fetchesAtOnce: Bool { discover }

    func run(in context: Context) async throws {
        let (settings, columns) = (
            try campus.settings(context), Terminal(environment: context.environment).columns
        )
        guard discover else {
            let listing = FacilityListing(configured: settings)
            return Terminal.standardOutput.line(json ? listing.json : listing.text(columns: columns))
        }
        let (listing, notes) = try await FacilityListing.discover(
            settings, fetcher: try network.fetcher(context), configPath: context.config.path)
        Terminal.standardOutput.line(json ? listing.json : listing.text(columns: columns))
        for note in notes { Terminal.standardError.say(note) }
    }
}

import ArgumentParser
import FoundationEssentials
import GymcardCore
import JSONOutput
import Occupancy
import TerminalText

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

    func run(in context: Context) async throws {
        let settings = try campus.settings(context)
        guard discover else {
            let rows = settings.facilities.map {
                Row(key: $0.key, name: $0.name, id: $0.id, capacity: $0.capacity)
            }
            return print(
                json
                    ? JSONText.line(rows, fallback: "[]")
                    : TextTable.text(
                        header: ["KEY", "NAME", "ID", "CAPACITY"],
                        rows: rows.map { [$0.key ?? "", $0.name, $0.id, "\($0.capacity ?? 0)"] }))
        }
        let found = try await CampusPage.discover(settings.page, fetcher: try network.fetcher(context))
        let configured = Dictionary(settings.facilities.map { ($0.id.lowercased(), $0.key) }) { first, _ in
            first
        }
        let rows = found.map {
            Row(
                key: configured[$0.id], name: $0.name, id: $0.id, capacity: $0.capacity,
                occupancy: $0.occupancy)
        }
        print(
            json
                ? JSONText.line(rows, fallback: "[]")
                : TextTable.text(
                    header: ["ID", "NAME", "CAPACITY", "CONFIGURED AS"],
                    rows: rows.map { [$0.id, $0.name, $0.capacity.map { "\($0)" } ?? "-", $0.key ?? ""] }))
        for note in CampusPage.missing(from: found, settings: settings, configPath: context.config.path) {
            Terminal.standardError.say(note)
        }
    }

    /// A facility in `--json` output; `key` is the configured key (null for a facility not configured).
    struct Row: Encodable {
        @ExplicitNull var key: String?
        var name: String
        var id: String
        @ExplicitNull var capacity: Int?
        var occupancy: Int?
    }
}

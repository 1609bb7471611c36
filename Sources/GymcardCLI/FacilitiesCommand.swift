import ArgumentParser
import Fetching
import FoundationEssentials
import GymcardCore
import JSONOutput
import Occupancy
import Storage
import TerminalText
import TextSearch

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
            let rows = settings.facilities.map { [$0.key, $0.name, $0.id, "\($0.capacity)"] }
            if json {
                print(
                    Self.json(
                        settings.facilities.map {
                            Row(key: $0.key, name: $0.name, id: $0.id, capacity: $0.capacity)
                        }))
            } else {
                print(
                    Self.table(header: ["KEY", "NAME", "ID", "CAPACITY"], rows: rows).joined(separator: "\n"))
            }
            return
        }
        let fetcher = try network.fetcher(context)
        let page: String
        do {
            let response = try await fetcher.fetch(
                .get(settings.page, accept: ExpectedContent.htmlPage.acceptHeader), expecting: .htmlPage)
            page = String(decoding: response.body, as: UTF8.self)
        } catch .cancelled {
            throw Failure.silent(.interrupted)
        } catch {
            throw Failure("cannot read the occupancy page: \(error)", status: .unavailable)
        }
        let found = FacilityDiscovery.parse(page)
        guard !found.isEmpty else {
            throw Failure(
                "the page at \(settings.page.absoluteString) lists no facilities (no data-facilityid); has it moved?",
                status: .dataError)
        }
        let configured = Dictionary(settings.facilities.map { ($0.id.lowercased(), $0.key) }) { first, _ in
            first
        }
        if json {
            print(
                Self.json(
                    found.map {
                        Row(
                            key: configured[$0.id], name: $0.name, id: $0.id, capacity: $0.capacity,
                            occupancy: $0.occupancy)
                    }))
        } else {
            let rows = found.map { facility in
                [
                    facility.id, facility.name, facility.capacity.map { "\($0)" } ?? "-",
                    configured[facility.id] ?? "",
                ]
            }
            print(
                Self.table(header: ["ID", "NAME", "CAPACITY", "CONFIGURED AS"], rows: rows).joined(
                    separator: "\n"))
        }
        let onPage = Set(found.map(\.id))
        let section = settings.campus.map { "campuses.\($0).facilities" } ?? "occupancy.facilities"
        for facility in settings.facilities where !onPage.contains(facility.id.lowercased()) {
            Terminal.standardError.say(
                "\(facility.key) (\(facility.id)) is not on the page; set its new ID under \(section) in "
                    + context.config.path)
        }
    }

    /// Columns padded to their widest cell.
    static func table(header: [String], rows: [[String]]) -> [String] {
        // Names come from the page or the config file: made terminal-safe before the columns are measured.
        let all = ([header] + rows).map { $0.map(\.terminalSafe) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ").trimmed
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

    static func json(_ rows: [Row]) -> String {
        JSONText.line(rows, fallback: "[]")
    }
}

import ArgumentParser
import CampusFeature
import CardFeature
import Console
import Glibc
import GymcardCore

/// `gymcard campus add|list|use|remove`: other Innosoft Fusion campuses, kept as profiles in the config
/// file's `campuses` section; `campus` names the one in use (Virginia Tech, `vt`, when absent).
struct CampusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campus",
        abstract:
            "Add, list and choose campuses on Innosoft Fusion, GoBoard or Waitz (Virginia Tech is built in).",
        discussion: """
            Many universities' recreation sites run Innosoft Fusion, whose occupancy page gymcard reads; others \
            publish their counts through Connect2Concepts GoBoard or Waitz. `campus add <url>` reads the \
            campus's occupancy page (or the vendor's list of zones), shows every facility or zone on it, and \
            keeps the campus as a profile in the config file; `campus use <name>` makes it the one occupancy, facilities, \
            history, trends, best, hours, wait and collect use, and --campus <name> chooses one for a single \
            command. Each campus keeps its own last values and history under \
            $XDG_STATE_HOME/gymcard/campuses/<name>/ (Virginia Tech's stay in $XDG_STATE_HOME/gymcard/).

            gymcard's card is a static Codabar or QR code: campuses whose app shows a rotating code (Fusion \
            Go's Code 128, refreshed every few seconds after a sign-in) cannot use it at the turnstile.
            """,
        subcommands: [Add.self, List.self, Use.self, Remove.self]
    )

    /// `campus add <url>`.
    struct Add: AsyncContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Read a campus's occupancy page and keep it as a profile (without switching to it).",
            discussion: """
                Three vendors, recognized from <url> (--vendor says it where the address cannot):

                fusion: Innosoft Fusion. <url> is the site (https://campusrec.ucsc.edu) or its occupancy page \
                (…/FacilityOccupancy).

                goboard: Connect2Concepts GoBoard. <url> is the occupancy widget the campus embeds \
                (https://www.connect2mycloud.com/Widgets/Data/locationCount?type=circle&key=<uuid>: find it in \
                the page source of the campus's facility-usage page, the key= UUID) or the API address \
                (https://goboardapi.azurewebsites.net/api/FacilityCount/GetCountsByAccount?AccountAPIKey=<uuid>). \
                One GET lists every zone; the count is LastCount out of the live TotalCapacity (over capacity \
                shown as it is), each zone's own update time is kept, and IsClosed is closed.

                waitz: Waitz. <url> is the campus's page, https://waitz.io/<slug> (the slug is its last part), \
                or https://waitz.io/live/<slug>. One GET lists every location and its floors; the fetch time \
                is the reading's time (Waitz gives none).

                Built in by name, from the key each campus's own page publishes: purdue (Purdue RecWell, \
                GoBoard) and uw-madison (UW–Madison Rec Well, GoBoard): `gymcard campus add purdue`. \
                GoBoard and Waitz publish no opening hours: give weekly hours in the profile's hours section, \
                or hours stay unknown.

                For Fusion, gymcard reads every facility card: its ID, its name (a leading \
                "3. " removed), its capacity (Max Occupancy) and whether the page shows a head count or only \
                a percent. The time zone comes from --time-zone; else, on a terminal, gymcard asks (the \
                suggestion is the campus's known zone, or a guess from its country); else the guess is taken \
                and said. Numbers are read with one GET of the whole page (--read page, the default: one \
                request for every facility, with the page's own "last updated" time); --read fragments \
                POSTs once per facility and needs the campus's --display-type.
                """)

        @Argument(help: ArgumentHelp("The campus's site or occupancy page.", valueName: "url"))
        var url: String

        @Option(
            name: .long, help: ArgumentHelp("The profile's name (default: from the site).", valueName: "name")
        )
        var name: String?

        @Option(
            name: .customLong("time-zone"),
            help: ArgumentHelp("The campus's time zone, such as America/Los_Angeles.", valueName: "zone"))
        var timeZone: String?

        @Option(
            name: .long,
            help: ArgumentHelp("How to read the numbers: page (default) or fragments.", valueName: "method"))
        var read: CampusProfile.ReadMethod?

        @Option(
            name: .customLong("display-type"),
            help: ArgumentHelp("The occupancyDisplayType for --read fragments.", valueName: "uuid"))
        var displayType: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The vendor, where <url> cannot say it: fusion, goboard or waitz.", valueName: "vendor"))
        var vendor: OccupancyVendor?

        @OptionGroup var network: NetworkOptions

        func validate() throws {
            if let name, !CampusProfile.isValidName(name) || name == CampusProfile.builtInName {
                throw ValidationError(
                    "--name must be 1 to 32 of a-z, 0-9 and -, starting with a letter, and not vt")
            }
            if let displayType, displayType.isEmpty || !displayType.allSatisfy({ $0.isHexDigit || $0 == "-" })
            {
                throw ValidationError("--display-type is a UUID such as 00000000-0000-0000-0000-000000004488")
            }
        }

        var fetchesAtOnce: Bool { true }

        func run(in context: Context) async throws {
            let setup = CampusSetup(context: context)
            let plan = try setup.plan(
                .init(
                    url: url, name: name, timeZone: timeZone, read: read, displayType: displayType,
                    vendor: vendor))
            let added: (table: String, notes: [String])
            do {
                added = try await setup.add(plan, fetcher: try network.fetcher(context)) {
                    timeZone ?? Self.askZone($0, context: context)
                }
            } catch let error as CampusPageProblem {
                let failure = error.failure
                throw failure.message.isEmpty
                    ? failure : Failure(failure.message + "; nothing was added", status: failure.status)
            }
            Terminal.standardOutput.line(added.table)
            let label = plan.vendor == .fusion ? "warning: " : "note: "
            for note in added.notes { Terminal.standardError.say(label + note) }
            let path = context.config.path
            Terminal.standardError.say(
                "added campus \(plan.name) to \(path); use it with --campus \(plan.name), "
                    + "or make it the default with: gymcard campus use \(plan.name)")
        }

        /// On a terminal, asks for the zone (suggesting a guess); else takes the guess and says so.
        static func askZone(_ plan: CampusSetup.Plan, context: Context) -> String {
            let canAsk = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 && TerminalPrompt.isAvailable
            return CampusZone(context: context).choose(
                plan,
                ask: canAsk ? { TerminalPrompt.askLine($0) } : nil,
                say: Terminal.standardError.say, problem: { $0.failure.message })
        }
    }

    /// `campus list`.
    struct List: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the campuses, marking the one in use.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run(in context: Context) throws {
            let (campuses, stray) = try CampusSetup(context: context).listings()
            if let stray {
                Terminal.standardError.say(
                    "warning: the config file's campus \(stray) is not one of these; "
                        + "choose one with gymcard campus use <name>")
            }
            guard !json else { return Terminal.standardOutput.line(CampusSetup.json(campuses)) }
            Terminal.standardOutput.line(CampusSetup.table(campuses))
        }
    }

    /// `campus use <name>`.
    struct Use: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "use",
            abstract: "Make a campus the one the occupancy commands use (vt: Virginia Tech).")

        @Argument(help: ArgumentHelp("The campus's name.", valueName: "name"), completion: .campuses)
        var name: String

        func run(in context: Context) throws {
            try CampusSetup(context: context).use(name)
            Terminal.standardError.say("the occupancy commands now use campus \(name)")
        }
    }

    /// `campus remove <name>`.
    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a campus profile (its history stays until you delete it).")

        @Argument(help: ArgumentHelp("The campus's name.", valueName: "name"), completion: .campuses)
        var name: String

        func run(in context: Context) throws {
            let (wasInUse, folder) = try CampusSetup(context: context).remove(name)
            Terminal.standardError.say(
                "removed campus \(name)" + (wasInUse ? "; the occupancy commands use vt again" : "")
                    + (folder.map { "; its readings and history stay in \($0)" } ?? ""))
        }
    }
}

extension CampusProfile.ReadMethod: ExpressibleByArgument {}

extension OccupancyVendor: ExpressibleByArgument {}

import ArgumentParser
import Configuration
import Fetching
import FoundationEssentials
import Glibc
import GymcardCore
import JSONOutput
import Occupancy
import Storage
import TerminalText
import TextSearch

/// `gymcard campus add|list|use|remove`: other Innosoft Fusion campuses, kept as profiles in the config
/// file's `campuses` section; `campus` names the one in use (Virginia Tech, `vt`, when absent).
struct CampusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campus",
        abstract: "Add, list and choose Innosoft Fusion campuses (Virginia Tech is built in).",
        discussion: """
            Many universities' recreation sites run Innosoft Fusion, whose occupancy page gymcard reads. \
            `campus add <url>` reads <url>/FacilityOccupancy, shows every facility on it, and keeps the campus \
            as a profile in the config file; `campus use <name>` makes it the one occupancy, facilities, \
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
                <url> is the site (https://campusrec.ucsc.edu) or its occupancy page \
                (…/FacilityOccupancy). gymcard reads every facility card: its ID, its name (a leading \
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

        func run(in context: Context) async throws {
            let base = try Self.base(of: url)
            let known = KnownCampus.at(base)
            let chosenName = name ?? known?.name ?? Self.name(from: base)
            guard chosenName != CampusProfile.builtInName else {
                throw Failure(
                    "Virginia Tech is built in (vt); nothing to add. Give --name to keep another profile of it",
                    status: .usage)
            }
            var document = try CampusConfig.load(context)
            if document["campuses"]?[chosenName] != nil {
                throw Failure(
                    "there is already a campus \(chosenName); give another --name, or remove it first "
                        + "(gymcard campus remove \(chosenName))",
                    status: .usage)
            }
            if let timeZone { try Self.checkZone(timeZone, context: context) }
            let method = read ?? .page
            let display = displayType ?? known?.displayType
            if method == .fragments, display == nil {
                throw Failure(
                    "--read fragments needs the campus's --display-type (seen: …4490 VT, …4489 Ohio, "
                        + "…4488 McMaster and Waterloo)", status: .usage)
            }
            let page = CampusProfile.pageURL(base: base)
            let found = try await Self.discover(page, network: network, context: context)
            let zone = try timeZone ?? Self.askZone(known: known, base: base, context: context)
            let profile = CampusProfile(
                name: chosenName, base: base, read: method, displayType: display, timeZone: zone,
                facilities: Self.facilities(found))
            Self.show(profile, found: found)
            for (index, seen) in found.enumerated() where seen.measure == .people && seen.capacity == nil {
                Terminal.standardError.say(
                    "warning: \(seen.name): the page gives no capacity; 100 is assumed; set the right one as "
                        + "campuses.\(chosenName).facilities[\(index)].capacity in \(context.config.path)"
                )
            }
            let unnamed = found.indices.filter { found[$0].name == DiscoveredFacility.unnamed }
            if let first = unnamed.first {
                Terminal.standardError.say(
                    "warning: \(unnamed.count) of \(found.count) cards have no heading; name them as "
                        + "campuses.\(chosenName).facilities[\(first)].name (and so on) in \(context.config.path)"
                )
            }
            var campuses = document["campuses"] ?? .object([])
            campuses.set(chosenName, to: profile.document)
            document.set("campuses", to: campuses)
            try CampusConfig.save(document, context)
            Terminal.standardError.say(
                "added campus \(chosenName) to \(context.config.path); use it with --campus \(chosenName), "
                    + "or make it the default with: gymcard campus use \(chosenName)")
        }

        /// `https://campusrec.ucsc.edu/FacilityOccupancy/` → `https://campusrec.ucsc.edu`.
        static func base(of text: String) throws -> URL {
            var trimmed = text.trimmed
            if !trimmed.contains("://") { trimmed = "https://" + trimmed }
            guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
            else {
                throw Failure(
                    "\(text) is not a web address; give the campus's site, such as https://campusrec.ucsc.edu",
                    status: .usage)
            }
            var path = url.path
            while path.hasSuffix("/") { path.removeLast() }
            if path.lowercased().hasSuffix("/facilityoccupancy") {
                path.removeLast("/facilityoccupancy".count)
            }
            var components = URLComponents()
            components.scheme = scheme
            components.host = host
            components.port = url.port
            components.path = path
            guard let base = components.url else {
                throw Failure("\(text) is not a web address", status: .usage)
            }
            return base
        }

        /// A name from the site: `bewell.ese.syr.edu` → `syr`, `recportal.torontomu.ca` → `torontomu`.
        static func name(from base: URL) -> String {
            let labels = (base.host ?? "campus").lowercased().split(separator: ".").map(String.init)
            let candidate = labels.count >= 2 ? labels[labels.count - 2] : labels.first ?? "campus"
            let cleaned = String(
                candidate.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(32))
            return CampusProfile.isValidName(cleaned) && cleaned != CampusProfile.builtInName
                ? cleaned : "campus"
        }

        /// The facility cards on the page; a page that is not the occupancy page fails with what it is.
        static func discover(_ page: URL, network: NetworkOptions, context: Context) async throws
            -> [DiscoveredFacility]
        {
            let fetcher = try network.fetcher(context)
            let text: String
            do {
                let response = try await fetcher.fetch(
                    .get(page, accept: ExpectedContent.htmlPage.acceptHeader), expecting: .htmlPage)
                text = String(decoding: response.body, as: UTF8.self)
            } catch .cancelled {
                throw Failure.silent(.interrupted)
            } catch {
                throw Failure("cannot read \(page.absoluteString): \(error)", status: .unavailable)
            }
            if let problem = FusionPage.pageProblem(text) {
                throw Failure("\(page.absoluteString): \(problem); nothing was added", status: .unavailable)
            }
            let found = FacilityDiscovery.parse(text)
            guard !found.isEmpty else {
                throw Failure(
                    "\(page.absoluteString) is not an Innosoft Fusion occupancy page: \(FusionPage.emptyPageProblem(text)) "
                        + "(no facility cards); nothing was added", status: .dataError)
            }
            return found
        }

        /// Profile facilities: keys from the names, capacity from the page (100 for a percent-only card).
        static func facilities(_ found: [DiscoveredFacility]) -> [Facility] {
            var keys = Set<String>()
            let firstWords = found.map { String($0.name.split(separator: " ").first ?? "") }
            return found.enumerated().map { index, facility in
                var key = slug(facility.name)
                if key.isEmpty { key = "facility-\(index + 1)" }
                var unique = key
                var suffix = 2
                while !keys.insert(unique).inserted {
                    unique = "\(key)-\(suffix)"
                    suffix += 1
                }
                let word = firstWords[index]
                let shortName =
                    word.count <= 10 && firstWords.filter({ $0 == word }).count == 1 && !word.isEmpty
                    ? word : facility.name
                // A percent needs no capacity; a head count without one is shown out of 100, and said.
                let capacity = facility.capacity ?? 100
                return Facility(
                    key: unique, name: facility.name, shortName: shortName, id: facility.id,
                    capacity: max(1, capacity), segments: capacity < 50 ? 8 : 14, measure: facility.measure)
            }
        }

        /// `Fitness Center` → `fitness-center`.
        static func slug(_ name: String) -> String {
            var slug = ""
            for character in name.lowercased() {
                if character.isASCII, character.isLetter || character.isNumber {
                    slug.append(character)
                } else if !slug.isEmpty, slug.last != "-" {
                    slug.append("-")
                }
            }
            while slug.hasSuffix("-") { slug.removeLast() }
            return slug
        }

        /// What was found, as a table on standard output.
        static func show(_ profile: CampusProfile, found: [DiscoveredFacility]) {
            let rows = zip(profile.facilities, found).map { facility, seen -> [String] in
                let now =
                    seen.measure == .percent
                    ? seen.percent.map { "\($0)% (percent only)" } ?? "percent only"
                    : seen.occupancy.map { "\($0) people" } ?? "-"
                return [facility.key, facility.name, seen.capacity.map { "\($0)" } ?? "-", now, facility.id]
            }
            print(
                "\(profile.name): \(profile.base.absoluteString) (\(profile.timeZone), read by \(profile.read.rawValue))"
                    .terminalSafe)
            print(
                FacilitiesCommand.table(header: ["KEY", "NAME", "CAPACITY", "NOW", "ID"], rows: rows).joined(
                    separator: "\n"))
        }

        /// The time zone: asked on a terminal with a suggestion, else the suggestion, said on stderr.
        static func askZone(known: KnownCampus?, base: URL, context: Context) throws -> String {
            let (guess, reason) = guessZone(known: known, base: base, environment: context.environment)
            if isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1, TerminalPrompt.isAvailable {
                while true {
                    guard
                        let answer = TerminalPrompt.ask(
                            "Time zone of \(base.host ?? "the campus") [\(guess)]: ", echo: true)
                    else { break }
                    let text = String(decoding: answer, as: UTF8.self).trimmed
                    if text.isEmpty { return guess }
                    do {
                        try checkZone(text, context: context)
                        return text
                    } catch let failure as Failure {
                        Terminal.standardError.say(failure.message)
                    }
                }
            }
            Terminal.standardError.say(
                "time zone: \(guess) (\(reason)); if that is wrong, remove the campus and add it again with --time-zone"
            )
            return guess
        }

        /// A suggestion and why: the known campus's zone, else one from the site's country and this
        /// machine's zone.
        static func guessZone(known: KnownCampus?, base: URL, environment: [String: String]) -> (
            String, String
        ) {
            if let known { return (known.timeZone, "\(known.school)'s time zone") }
            let local = localZone(environment)
            let host = base.host?.lowercased() ?? ""
            if host.hasSuffix(".ca") {
                return local.hasPrefix("America/") && canadian.contains(local)
                    ? (local, "this machine's zone, for a Canadian site")
                    : ("America/Toronto", "guessed from the site's country, Canada")
            }
            if host.hasSuffix(".edu") || host.hasSuffix(".us") {
                return local.hasPrefix("America/") && !canadian.contains(local)
                    ? (local, "this machine's zone, for a US site")
                    : ("America/New_York", "guessed from the site's country, the US")
            }
            return (local, "this machine's zone")
        }

        private static let canadian: Set<String> = [
            "America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Halifax",
            "America/St_Johns", "America/Regina", "America/Montreal",
        ]

        /// This machine's zone: `TZ`, `/etc/timezone`, or where `/etc/localtime` points; else UTC.
        static func localZone(_ environment: [String: String]) -> String {
            // TZ may be written `:Europe/Berlin`.
            if let value = environment["TZ"] {
                let zone = value.hasPrefix(":") ? String(value.dropFirst()) : value
                if OccupancySettings.isZoneName(zone) { return zone }
            }
            if let bytes = try? FileContents.read("/etc/timezone", limitBytes: 256) {
                let zone = String(decoding: bytes, as: UTF8.self).trimmed
                if OccupancySettings.isZoneName(zone) { return zone }
            }
            var buffer = [CChar](repeating: 0, count: 512)
            let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
            if length > 0 {
                let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if let range = target.range(ignoringCaseOf: "zoneinfo/") {
                    return String(target[range.upperBound...])
                }
            }
            return "UTC"
        }

        /// A zone name tzdata knows.
        static func checkZone(_ zone: String, context: Context) throws {
            guard OccupancySettings.isZoneName(zone), context.hasZone(zone)
            else {
                throw Failure(
                    "\(zone) is not a time zone known here; give a name such as America/Los_Angeles "
                        + "(see \(context.zoneDirectory))", status: .usage)
            }
        }
    }

    /// `campus list`.
    struct List: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the campuses, marking the one in use.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run(in context: Context) throws {
            let file = try context.config.read()
            let inUse = OccupancySettings.campusInUse(configFile: file)
            // The file read once above serves every campus.
            let settings: [OccupancySettings]
            do throws(ConfigProblem) {
                let names = try [CampusProfile.builtInName] + OccupancySettings.profileNames(configFile: file)
                settings = try names.map { name throws(ConfigProblem) in
                    try OccupancySettings.resolve(configFile: file, environment: [:], campus: name)
                }
            } catch { throw context.config.problem(error) }
            if !settings.contains(where: { $0.campusName == inUse }) {
                Terminal.standardError.say(
                    "warning: the config file's campus \(inUse) is not one of these; "
                        + "choose one with gymcard campus use <name>")
            }
            if json {
                struct Row: Encodable {
                    var name: String
                    var site: String
                    var facilities: [String]
                    var timeZone: String
                    var read: String
                    var inUse: Bool
                }
                print(
                    JSONText.line(
                        settings.map {
                            Row(
                                name: $0.campusName, site: Self.site($0),
                                facilities: $0.facilities.map(\.key),
                                timeZone: $0.timeZone, read: $0.read.rawValue, inUse: $0.campusName == inUse)
                        }, fallback: "[]"))
                return
            }
            let rows = settings.map { settings -> [String] in
                [
                    settings.campusName + (settings.campusName == inUse ? " (in use)" : ""),
                    Self.site(settings),
                    settings.timeZone, settings.facilities.map(\.shortName).joined(separator: ", "),
                ]
            }
            print(
                FacilitiesCommand.table(header: ["NAME", "SITE", "TIME ZONE", "FACILITIES"], rows: rows)
                    .joined(
                        separator: "\n"))
        }

        /// `https://campusrec.ucsc.edu` (the page without `/FacilityOccupancy`).
        static func site(_ settings: OccupancySettings) -> String {
            var text = settings.page.absoluteString
            if text.lowercased().hasSuffix("/facilityoccupancy") {
                text.removeLast("/facilityoccupancy".count)
            }
            return text
        }
    }

    /// `campus use <name>`.
    struct Use: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "use",
            abstract: "Make a campus the one the occupancy commands use (vt: Virginia Tech).")

        @Argument(help: ArgumentHelp("The campus's name.", valueName: "name"))
        var name: String

        func run(in context: Context) throws {
            var document = try CampusConfig.load(context)
            try CampusConfig.requireKnown(name, in: document)
            document.set("campus", to: name == CampusProfile.builtInName ? nil : .string(name))
            try CampusConfig.save(document, context)
            Terminal.standardError.say("the occupancy commands now use campus \(name)")
        }
    }

    /// `campus remove <name>`.
    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a campus profile (its history stays until you delete it).")

        @Argument(help: ArgumentHelp("The campus's name.", valueName: "name"))
        var name: String

        func run(in context: Context) throws {
            let directories = context.directories
            guard name != CampusProfile.builtInName else {
                throw Failure("vt is built in and cannot be removed", status: .usage)
            }
            var document = try CampusConfig.load(context)
            try CampusConfig.requireKnown(name, in: document)
            var campuses = document["campuses"] ?? .object([])
            campuses.set(name, to: nil)
            document.set("campuses", to: campuses == .object([]) ? nil : campuses)
            let wasInUse = document["campus"] == .string(name)
            if wasInUse { document.set("campus", to: nil) }
            try CampusConfig.save(document, context)
            let folder = OccupancyStateFile.folder(directories, campus: name)
            Terminal.standardError.say(
                "removed campus \(name)" + (wasInUse ? "; the occupancy commands use vt again" : "")
                    + (access(folder, F_OK) == 0 ? "; its readings and history stay in \(folder)" : ""))
        }
    }
}

/// Reading and writing the config file for the `campus` commands, keeping what else the file holds.
enum CampusConfig {
    /// The config file as a document (an empty object when there is none). Not JSON fails as the config
    /// file does everywhere (78, with the line and column).
    static func load(_ context: Context) throws -> JSONDocument {
        guard let bytes = try context.config.read() else { return .object([]) }
        guard let document = JSONDocument.parse(Array(bytes)), case .object = document else {
            throw Failure(
                "\(context.config.path): cannot be edited (not a JSON object); fix it first",
                status: .configError)
        }
        return document
    }

    /// Writes the document back in one step: the file's mode and a symbolic link to it are kept.
    static func save(_ document: JSONDocument, _ context: Context) throws {
        let path = context.config.path
        do {
            try Directory.create(AtomicFile.directory(of: path), permissions: 0o700)
            try UserFile.write(Array(document.text.utf8), to: path)
        } catch {
            throw Failure("cannot write \(path): \(error); it is unchanged", status: .ioError)
        }
    }

    /// A usage error (64) naming the known campuses when `name` is not one.
    static func requireKnown(_ name: String, in document: JSONDocument) throws {
        guard name != CampusProfile.builtInName, document["campuses"]?[name] == nil else { return }
        var profiles: [String] = []
        if case .object(let members)? = document["campuses"] { profiles = members.map(\.key) }
        throw Failure(CampusProfile.unknownMessage(name, profiles: profiles), status: .usage)
    }
}

extension CampusProfile.ReadMethod: ExpressibleByArgument {}

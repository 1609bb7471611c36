import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard events`: what RecSports has coming up.
struct EventsCommand: AsyncContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List upcoming RecSports events, or export them to your calendar.",
        discussion: """
            Reads the RecSports events feed (Campus Labs Engage RSS, or an iCalendar source) and lists \
            the events that have not ended and start within --days days, by day in the local time zone \
            (TZ is respected). Cancelled events are marked CANCELLED.

            The last fetch is kept in $XDG_CACHE_HOME/gymcard/events.json and answers for 5 minutes; \
            --refresh fetches anyway. When the feed cannot be fetched or read, the cached events are \
            shown with their age on stderr and the exit status is 75. --ics <file> writes the listed events \
            as an iCalendar file that calendar programs import (- for standard output).

            --search lists only events whose title, description, location, hosts or categories hold \
            every word given; --category and --location (each may be repeated: any of them) only those \
            in such a category or place. Letters are compared without case. A weekly or daily event in \
            an iCalendar feed (RRULE with INTERVAL, COUNT, UNTIL, BYDAY, and its EXDATEs) is listed on \
            each occurrence within --days; monthly and yearly rules are not expanded (the first \
            occurrence is listed).
            """
    )

    @Option(
        name: [.short, .long],
        help: ArgumentHelp("List events starting within this many days.", valueName: "n"))
    var days: Int = 14

    @Option(
        name: .long,
        help: ArgumentHelp("Only events whose text holds every one of these words.", valueName: "words"))
    var search: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Only events in a category containing this text (repeatable).", valueName: "name"))
    var category: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Only events at a location containing this text (repeatable).", valueName: "place")
    )
    var location: [String] = []

    @Flag(name: .long, help: "Print the events as a JSON array.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the listed events to an iCalendar (.ics) file; - for standard output.",
            valueName: "file"),
        completion: .file(extensions: ["ics"]))
    var ics: String?

    @Flag(name: .long, help: "Fetch the feed even when the cached copy is still fresh.")
    var refresh = false

    @Flag(name: .customLong("no-color"), help: "Print without colour codes.")
    var noColor = false

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        guard (1...366).contains(days) else { throw ValidationError("--days must be between 1 and 366") }
        if json, ics == "-" {
            throw ValidationError("--json and --ics - both write to standard output; give one")
        }
    }

    func run(in context: Context) async throws {
        let query = try EventsQuery(context: context)
        let answer = try await query.answer(refresh: refresh) { try network.fetcher(context) }
        for warning in answer.warnings { Terminal.standardError.say(warning) }
        try show(query.upcoming(answer.snapshot, days: days, matching: filter), query, context: context)
        if let failure = answer.saveFailure {
            throw Failure("the events were shown but not cached: \(failure)", status: .ioError)
        }
        if answer.isStale { throw Failure.silent(.staleData) }
    }

    private var filter: EventFilter { EventFilter(search: search, categories: category, locations: location) }

    /// Prints (or exports) the events.
    private func show(_ events: [Event], _ query: EventsQuery, context: Context) throws {
        if let ics {
            try NamedOutput.write(query.calendar(events), to: ics)
            if ics != "-" { Terminal.standardError.say(EventsQuery.written(events, to: ics)) }
        }
        if json { Terminal.standardOutput.line(EventsJSON.document(events)) }
        guard ics == nil, !json else { return }
        let terminal = Terminal(environment: context.environment)
        let colour = terminal.reasonColourIsOff(noColorFlag: noColor) == nil
        let view = EventsTextView(colour: colour, zone: .system, now: query.now, columns: terminal.columns)
        terminal.printLines(view.lines(events, days: days))
    }
}

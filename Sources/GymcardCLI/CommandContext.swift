import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

/// A command that runs in the process's ``Context`` (ARCHITECTURE §3): the entry point builds the context
/// once and calls ``run(in:)``; nothing in the command reads the environment, the clock or the config
/// file on its own.
protocol ContextCommand: ParsableCommand {
    func run(in context: Context) throws
}

/// The same for the commands that wait for the network, a timer or a child process.
protocol AsyncContextCommand: AsyncParsableCommand {
    /// Whether this command line fetches as soon as it runs, whatever its caches hold (`occupancy` but not
    /// `--cached` or `--demo`; `wait`, `collect`, `campus add`, `facilities --discover`): the entry point
    /// then hands it to `gymcard-network` right after parsing, before the config file or a time zone is
    /// read (they would be read again there). The commands that may answer from a cache (`events`,
    /// `hours`, `best`) say no: their context hands them over on their first fetch, so a cached answer
    /// costs no second process (ARCHITECTURE §3, "Two binaries"). A requirement here, not a protocol of
    /// its own: a cast to another protocol would scan every conformance record of the binary, 1% of a
    /// command's start (§15).
    var fetchesAtOnce: Bool { get }

    func run(in context: Context) async throws
}

extension ContextCommand {
    /// Never called: the entry point calls ``run(in:)``.
    func run() throws { throw CommandWithoutContext() }
}

extension AsyncContextCommand {
    var fetchesAtOnce: Bool { false }

    /// Never called: the entry point calls ``run(in:)``.
    func run() async throws { throw CommandWithoutContext() }
}

/// A command was run without the entry point (a programming error, reported as internal: 70).
struct CommandWithoutContext: Error, CustomStringConvertible {
    var description: String { "a command ran without its context" }
}

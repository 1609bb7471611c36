import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

/// Options shared by the commands that use the network: `occupancy` and `facilities --discover`.
struct NetworkOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give up on a try after this many seconds; a request is tried again, all tries within twice this.",
            valueName: "seconds")
    )
    var timeout: Double = 10

    func validate() throws {
        guard timeout >= 0.1, timeout <= 120 else {
            throw ValidationError("--timeout must be between 0.1 and 120 seconds")
        }
    }

    /// The process's one HTTP client: a whole-request timeout, and up to three tries for transient failures.
    func fetcher(_ context: Context) throws -> Fetcher { try context.fetcher(timeoutSeconds: timeout) }
}

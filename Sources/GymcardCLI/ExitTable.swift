import ArgumentParser
import GymcardCore
import History

/// The one place that turns what went wrong into the line a person reads and the exit status
/// (ExitStatus, sysexits(3)). The libraries' errors are neutral: they say what happened; the advice
/// ("fix or remove it", "install tzdata") is added here.
enum ExitTable {
    /// The failure for `error`, or `nil` for an error this table does not know (the entry point then asks
    /// argument-parser, and anything still unknown is an internal error, 70).
    static func failure(for error: any Error) -> Failure? {
        switch error {
        case let failure as Failure:
            return failure
        case let convertible as any ConvertibleToFailure:
            return convertible.failure
        case let problem as ContextProblem:
            return failure(problem)
        case let problem as ConfigFileProblem:
            return Failure(
                "\(problem); " + (problem.path == nil ? "fix or unset it" : "fix or remove it"),
                status: .configError)
        case let error as HistoryError:
            return historyFailure(error)
        case let problem as FacilityLookupProblem:
            return Failure("\(problem); give one of \(problem.known.joined(separator: ", "))", status: .usage)
        default:
            return nil
        }
    }

    /// The history: 65 for a file from a newer gymcard, 74 otherwise (full, busy, unreadable).
    private static func historyFailure(_ error: HistoryError) -> Failure {
        if case .newerVersion = error { return Failure("\(error)", status: .dataError) }
        return Failure("\(error)", status: .ioError)
    }

    private static func failure(_ problem: ContextProblem) -> Failure {
        switch problem {
        case .invalidTestClock: Failure("\(problem)", status: .usage)
        case .unknownZone:
            Failure(
                "\(problem); install tzdata, or set occupancy.timeZone in the config file",
                status: .configError)
        case .networkUnavailable:
            Failure(
                "\(problem); gymcard needs it beside itself for the network: reinstall gymcard",
                status: .unavailable)
        }
    }
}

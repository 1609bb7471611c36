import ArgumentParser
import GymcardCore
import Occupancy

/// A duration (`90m`, `2h30m`, `30s`), parsed once; each command checks its own range in `validate()`.
struct DurationArgument: ExpressibleByArgument, Sendable {
    /// Seconds.
    var seconds: Int
    /// As given, for messages (`within 30s`).
    var text: String

    init(seconds: Int, text: String) {
        self.seconds = seconds
        self.text = text
    }

    init?(argument: String) {
        guard let seconds = DurationWords.seconds(argument) else { return nil }
        self.init(seconds: seconds, text: argument)
    }

    var defaultValueDescription: String { text }
}

/// `--below`: a percentage (`30%`) or a number of people (`120`).
struct ThresholdArgument: ExpressibleByArgument, Sendable {
    var threshold: WaitCondition.Threshold

    init?(argument: String) {
        guard let threshold = WaitCondition.Threshold(text: argument) else { return nil }
        self.threshold = threshold
    }
}

/// A person picks one of several things from a numbered list (the cards of a Catima file, the IDs of a
/// photo): the list is shown, and the question asked again after an answer that is no number on it.
public enum NumberedChoice {
    /// What came of asking.
    public enum Outcome: Equatable, Sendable {
        /// The index of the item picked.
        case picked(Int)
        /// Nothing was asked (no terminal), or nothing answered (Enter on its own, or Ctrl-D).
        case unanswered
        /// Only answers that are no number on the list, ``tries`` times.
        case noneOnList
    }

    /// How many answers that are no number on the list are taken before giving up.
    public static let tries = 5

    /// Shows `items` through `list` (`  1. item`, made terminal-safe) and `note` after them, then asks `question` until the
    /// answer is a number on the list; `say` gets the line that asks again ("give a number from 1 to 3
    /// (4 is not on the list)").
    public static func pick(
        _ items: [String], question: String, note: String? = nil, list: (String) -> Void,
        say: (String) -> Void, ask: (String) throws -> String?
    ) rethrows -> Outcome {
        for (index, item) in items.enumerated() { list("  \(index + 1). \(item.terminalSafe)") }
        if let note { list(note) }
        for attempt in 1...tries {
            guard let answer = try ask("\(question) (1–\(items.count)) ") else { return .unanswered }
            let trimmed = answer.filter { !$0.isWhitespace }
            if trimmed.isEmpty { return .unanswered }
            if let number = Int(trimmed), (1...items.count).contains(number) { return .picked(number - 1) }
            if attempt < tries {
                say("give a number from 1 to \(items.count) (\(trimmed.terminalSafe) is not on the list)")
            }
        }
        return .noneOnList
    }
}

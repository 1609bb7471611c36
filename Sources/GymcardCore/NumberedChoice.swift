import TerminalText

/// A person picks one of several things from a numbered list (the cards of a Catima file, the IDs of a
/// photo): the list is shown, and the question asked again after an answer that is no number on it.
public enum NumberedChoice {
    /// How many answers that are no number on the list are taken before giving up.
    static let tries = 5

    /// The index of the item picked, or `nil` when nothing was: `ask` could not ask (no terminal), the
    /// person answered nothing (Enter or Ctrl-D), or gave no number on the list `tries` times.
    /// `items` are shown through `list` as `  1. item` (made terminal-safe); `say` gets the line that asks
    /// for a number again.
    public static func pick(
        _ items: [String], question: String, list: (String) -> Void, say: (String) -> Void,
        ask: (String) throws -> String?
    ) rethrows -> Int? {
        for (index, item) in items.enumerated() { list("  \(index + 1). \(item.terminalSafe)") }
        for _ in 0..<tries {
            guard let answer = try ask("\(question) (1–\(items.count), Enter for none) ") else { return nil }
            let trimmed = answer.filter { !$0.isWhitespace }
            if trimmed.isEmpty { return nil }
            if let number = Int(trimmed), (1...items.count).contains(number) { return number - 1 }
            say("\(trimmed.terminalSafe) is not on the list: give a number from 1 to \(items.count)")
        }
        return nil
    }
}

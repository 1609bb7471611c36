import ArgumentParser
import Configuration

/// The one line a usage error becomes: argument-parser's first line, worded as gymcard's other
/// messages are, with the closest command name when a command was mistyped.
enum UsageWording {
    /// `message` is argument-parser's first line without `Error: ` and the final full stop; `path` the
    /// command named so far (`gymcard`, `gymcard history`) and `subcommands` the commands it has.
    static func line(_ message: String, path: String, subcommands: [String]) -> String {
        var message = message
        // "Unknown option '--pgn'. Did you mean '--png'?" → "unknown option '--pgn' (did you mean '--png'?)".
        if let range = message.firstRange(of: ". Did you mean ") {
            let suggestion = message[range.upperBound...]
            message = String(message[..<range.lowerBound]) + " (did you mean " + suggestion + ")"
        }
        // "Unexpected argument 'shwo'" where a command is expected: name it so, with the closest one.
        let unexpected = "Unexpected argument '"
        if !subcommands.isEmpty, message.hasPrefix(unexpected), message.hasSuffix("'") {
            let word = String(message.dropFirst(unexpected.count).dropLast())
            message = "unknown command '\(word)'"
            if let closest = ConfigShape.closest(to: word, among: subcommands) {
                message += " (did you mean '\(closest)'?)"
            }
        }
        // "Unknown option" → "unknown option", as every other gymcard message starts (not "ID", "URL").
        if let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase == true {
            message = first.lowercased() + message.dropFirst()
        }
        return message + "; see '\(path) --help'"
    }

    /// `gymcard help nope`: the line to say when a name after `help` is no command (argument-parser
    /// would print the main help and exit 0), or `nil`.
    static func unknownHelpTopic(_ arguments: [String], root: any ParsableCommand.Type) -> String? {
        guard arguments.first == "help" else { return nil }
        var path = ["gymcard"]
        var candidates = root.configuration.subcommands
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            guard let match = candidates.first(where: { $0._commandName == name }) else {
                let names = candidates.map { $0._commandName }.filter { $0 != "help" }
                var line = "no command '\(name)'"
                if path.count > 1 { line = "'\(path.joined(separator: " "))' has " + line }
                if let closest = ConfigShape.closest(to: name, among: names) {
                    line += " (did you mean '\(closest)'?)"
                }
                return line + "; see '\(path.joined(separator: " ")) --help'"
            }
            path.append(name)
            candidates = match.configuration.subcommands
        }
        return nil
    }
}

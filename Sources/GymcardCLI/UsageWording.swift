import ArgumentParser
import Configuration

/// The one line a usage error becomes: argument-parser's first line, worded as gymcard's other
/// messages are, with the closest command name when a command was mistyped.
enum UsageWording {
    /// `message` is argument-parser's text for a usage error in the command line `arguments`, whose
    /// command is `root`.
    static func line(_ message: String, _ arguments: [String], root: any ParsableCommand.Type) -> String {
        var message = message.split(separator: "\n").first.map(String.init) ?? "invalid usage"
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        if message.hasSuffix(".") { message.removeLast() }
        let (path, subcommands, _) = walk(arguments, root: root)
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

    /// The commands `arguments` name from `root` on (options skipped): their path (`gymcard history`), the
    /// last one's subcommands (help excluded), and the first word that is none of them.
    static func walk(_ arguments: some Sequence<String>, root: any ParsableCommand.Type) -> (
        path: String, subcommands: [String], unknown: String?
    ) {
        var path = ["gymcard"]
        var candidates = root.configuration.subcommands
        var unknown: String?
        for name in arguments where !name.hasPrefix("-") {
            guard let match = candidates.first(where: { $0._commandName == name }) else {
                unknown = name
                break
            }
            path.append(name)
            candidates = match.configuration.subcommands
        }
        let names = candidates.map { $0._commandName }.filter { $0 != "help" }
        return (path.joined(separator: " "), names, unknown)
    }

    /// `gymcard help nope`: the line to say when a name after `help` is no command (argument-parser
    /// would print the main help and exit 0), or `nil`.
    static func unknownHelpTopic(_ arguments: [String], root: any ParsableCommand.Type) -> String? {
        guard arguments.first == "help" else { return nil }
        let (path, names, unknown) = walk(arguments.dropFirst(), root: root)
        guard let unknown else { return nil }
        var line = "no command '\(unknown)'"
        if path != "gymcard" { line = "'\(path)' has " + line }
        if let closest = ConfigShape.closest(to: unknown, among: names) {
            line += " (did you mean '\(closest)'?)"
        }
        return line + "; see '\(path) --help'"
    }
}

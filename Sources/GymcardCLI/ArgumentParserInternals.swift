import ArgumentParser
import GymcardCore

// Everything gymcard relies on in swift-argument-parser beyond its documented API, in one file
// (ARCHITECTURE §15). The pin is exact (Package.swift); `ArgumentParserInternalsTests` fails, naming
// what to re-check here, when the pin or any of these behaviours changes:
//
// 1. `CommandConfiguration._superCommandName`: a root that names a super-command skips argument-parser's
//    search for `--generate-completion-script` (two trial parses, a fifth of `--version`'s instructions).
// 2. `ParsableCommand._commandName`: a command's name as argument-parser spells it.
// 3. The English text of a usage error's first line (`Unknown option '--pgn'. Did you mean
//    '--png'?`, `Unexpected argument 'shwo'`), which ``UsageLine`` rewords into gymcard's one line.

/// What is relied on, for the test that checks it.
enum ArgumentParserInternals {
    /// The version Package.swift pins exactly; a different one must be re-checked against this file.
    static let pinnedVersion = "1.8.2"

    /// `plain` naming a super-command (1.), for the quick parse.
    static func quickRoot(_ plain: CommandConfiguration) -> CommandConfiguration {
        var root = plain
        root._superCommandName = plain.commandName
        return root
    }
}

/// Whether the root command's parse may skip argument-parser's search for `--generate-completion-script`.
///
/// argument-parser 1.8.2 begins every parse with `checkForCompletionScriptRequest`: two trial parses of
/// commands of its own, whose reflection makes first conformance lookups that each scan every
/// conformance record of the binary; skipping them saves a fifth of `gymcard --version`'s instructions
/// (ARCHITECTURE §15). It skips that search for a root that names a super-command (`_superCommandName`), so the root's
/// configuration names one while ``parse(_:_:)`` runs on arguments that cannot ask for a completion script.
/// Help, usage and errors are worded after the parse, when the root is plain again.
public enum QuickRootParse {
    /// Task-local, not a process-wide flag: help worded in one task while another parses (tests run in
    /// parallel) must see the plain root, or it reads "gymcard gymcard show".
    @TaskLocal private static var parsing = false

    /// True only during ``parse(_:_:)`` of arguments that ask for no completion script, in its task.
    public static var isActive: Bool { parsing }

    /// Runs `parse` on `arguments` with ``isActive`` set when no argument asks for a completion script.
    public static func parse<Parsed>(_ arguments: [String], _ parse: ([String]) throws -> Parsed) throws
        -> Parsed
    {
        try $parsing.withValue(!arguments.contains { $0.hasPrefix("--generate-completion-script") }) {
            try parse(arguments)
        }
    }
}

extension CommandNames {
    /// `command`'s name and its subcommands', from argument-parser's definitions.
    init(_ command: any ParsableCommand.Type) {
        self.init(name: command._commandName, subcommands: command.configuration.subcommands.map(Self.init))
    }
}

/// A command and the commands under it, by name, as the command line defines them.
public struct CommandNames: Sendable {
    /// The command's name (`gymcard`, `history`).
    public var name: String
    /// The commands under it.
    public var subcommands: [CommandNames]

    /// A command named `name` with `subcommands`.
    public init(name: String, subcommands: [CommandNames]) {
        self.name = name
        self.subcommands = subcommands
    }
}

/// The one line a usage error becomes: the argument parser's first line, worded as gymcard's other
/// messages are, with the closest command name when a command was mistyped.
public enum UsageLine {
    /// `message` is the argument parser's text for a usage error in the command line `arguments`, whose
    /// commands are `root`.
    public static func line(_ message: String, _ arguments: [String], root: CommandNames) -> String {
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
    public static func walk(_ arguments: some Sequence<String>, root: CommandNames) -> (
        path: String, subcommands: [String], unknown: String?
    ) {
        var path = [root.name]
        var candidates = root.subcommands
        var unknown: String?
        for name in arguments where !name.hasPrefix("-") {
            guard let match = candidates.first(where: { $0.name == name }) else {
                unknown = name
                break
            }
            path.append(name)
            candidates = match.subcommands
        }
        let names = candidates.map(\.name).filter { $0 != "help" }
        return (path.joined(separator: " "), names, unknown)
    }

    /// `gymcard help nope`: the line to say when a name after `help` is no command (the argument parser
    /// would print the main help and exit 0), or `nil`. `root` is asked for only after `help`.
    public static func unknownHelpTopic(_ arguments: [String], root: () -> CommandNames) -> String? {
        // `help help` is argument-parser's own: it prints the help command's usage.
        guard arguments.first == "help", arguments.dropFirst().first != "help" else { return nil }
        let root = root()
        let (path, names, unknown) = walk(arguments.dropFirst(), root: root)
        guard let unknown else { return nil }
        var line = "no command '\(unknown)'"
        if path != root.name { line = "'\(path)' has " + line }
        if let closest = ConfigShape.closest(to: unknown, among: names) {
            line += " (did you mean '\(closest)'?)"
        }
        return line + "; see '\(path) --help'"
    }
}

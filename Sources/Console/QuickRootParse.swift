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

import Testing

@testable import GymcardCLI

/// The one line a usage error becomes, in-process over a small command tree.
@Suite struct UsageLineTests {
    let root = CommandNames(
        name: "gymcard",
        subcommands: [
            CommandNames(name: "show", subcommands: []), CommandNames(name: "scan", subcommands: []),
            CommandNames(
                name: "history",
                subcommands: [
                    CommandNames(name: "export", subcommands: []),
                    CommandNames(name: "import", subcommands: []),
                ]),
            CommandNames(name: "help", subcommands: []),
        ])

    @Test(arguments: [
        (
            "Error: Unknown option '--pgn'. Did you mean '--png'?\nUsage: gymcard show [--png <file>]",
            ["show", "--pgn"],
            "unknown option '--pgn' (did you mean '--png'?); see 'gymcard show --help'"
        ),
        (
            "Error: Unexpected argument 'shwo'.\n", ["shwo"],
            "unknown command 'shwo' (did you mean 'show'?); see 'gymcard --help'"
        ),
        (
            "Error: Unexpected argument 'exprot'", ["history", "exprot"],
            "unknown command 'exprot' (did you mean 'export'?); see 'gymcard history --help'"
        ),
        (
            "Error: Missing expected argument '<photo> ...'", ["scan"],
            "missing expected argument '<photo> ...'; see 'gymcard scan --help'"
        ),
        ("Error: ID is wrong.", ["show"], "ID is wrong; see 'gymcard show --help'"),
    ])
    func aUsageErrorIsOneLineThatNamesTheHelpToRead(message: String, arguments: [String], line: String) {
        #expect(UsageLine.line(message, arguments, root: root) == line)
    }

    @Test func helpForACommandThatIsNoneSaysSoWithTheClosest() {
        #expect(
            UsageLine.unknownHelpTopic(["help", "shwo"], root: { root })
                == "no command 'shwo' (did you mean 'show'?); see 'gymcard --help'")
        #expect(
            UsageLine.unknownHelpTopic(["help", "history", "exprot"], root: { root })
                == "'gymcard history' has no command 'exprot' (did you mean 'export'?); see 'gymcard history --help'"
        )
        #expect(UsageLine.unknownHelpTopic(["help", "history", "export"], root: { root }) == nil)
        #expect(UsageLine.unknownHelpTopic(["help", "help"], root: { root }) == nil)
        // The tree is not asked for when the first word is not help.
        #expect(
            UsageLine.unknownHelpTopic(
                ["show", "nope"],
                root: {
                    Issue.record("asked"); return root
                }) == nil)
        #expect(UsageLine.walk(["history", "--json", "export"], root: root).path == "gymcard history export")
        #expect(UsageLine.walk([], root: root).subcommands == ["show", "scan", "history"])
    }
}

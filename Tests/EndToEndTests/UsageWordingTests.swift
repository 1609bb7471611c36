import Foundation
import TestSupport
import Testing

/// Usage errors as one line a person can act on: a mistyped option or command names the one meant,
/// and `help` with a name that is no command says so instead of printing the main help.
@Suite("Usage errors name what was meant")
struct UsageWordingTests {
    @Test(
        "a mistyped option, command or help topic: one line, the closest name, exit 64",
        arguments: [
            (
                ["show", "--pgn", "x.png"],
                "gymcard: unknown option '--pgn' (did you mean '--png'?); see 'gymcard show --help'"
            ),
            (["shwo"], "gymcard: unknown command 'shwo' (did you mean 'show'?); see 'gymcard --help'"),
            (
                ["history", "exprt"],
                "gymcard: unknown command 'exprt' (did you mean 'export'?); see 'gymcard history --help'"
            ),
            (["frobnicate"], "gymcard: unknown command 'frobnicate'; see 'gymcard --help'"),
            (["help", "nope"], "gymcard: no command 'nope'; see 'gymcard --help'"),
            (
                ["help", "histroy"],
                "gymcard: no command 'histroy' (did you mean 'history'?); see 'gymcard --help'"
            ),
            (
                ["help", "history", "exprt"],
                "gymcard: 'gymcard history' has no command 'exprt' (did you mean 'export'?); see 'gymcard history --help'"
            ),
        ])
    func mistyped(arguments: [String], line: String) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [line])
    }

    @Test("help with a command still prints its help, exit 0")
    func helpForACommand() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["help", "history", "export"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("USAGE: gymcard history export"))
    }
}

@Suite("Advice names the file the command writes")
struct OutputAdviceTests {
    @Test(
        "--png - on a terminal is refused with a redirect named after what is written",
        arguments: [
            ("trends --png -", "(> trends.png)"), ("show --id 905123456 --png -", "(> card.png)"),
            ("show --id 905123456 --qr -", "(> qr.png)"),
        ])
    func redirectExample(arguments: String, example: String) async throws {
        let home = try TemporaryDirectory()
        let environment = GymcardProcess(home: home.path, extra: ["GYMCARD_TEST_NOW": "2026-11-21T19:00:00Z"])
            .environment
        let refused = try await shell(
            "script -qec '\(GymcardProcess.executable.path) \(arguments)' /dev/null; echo status=$?",
            environment: environment)
        #expect(refused.output.contains("refusing to write a PNG"), "\(refused.output)")
        #expect(refused.output.contains(example), "\(refused.output)")
        #expect(refused.output.contains("status=64"))
    }
}

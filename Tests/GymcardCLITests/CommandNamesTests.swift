import ArgumentParser
import Testing

@testable import GymcardCLI

@Suite("Command definitions")
struct CommandNamesTests {
    /// Without an explicit name, argument-parser derives one with `String(describing:)` on the type, and
    /// each such call scans every protocol conformance in the binary (about 5000), at every start of
    /// `gymcard` (Benchmarks/render.sh times `show --png`).
    @Test("every command names itself, so parsing never derives a name from the type")
    func explicitNames() {
        var missing: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: String) {
            guard let name = command.configuration.commandName else {
                missing.append(path + " " + String(describing: command))
                return
            }
            for subcommand in command.configuration.subcommands { visit(subcommand, path: path + " " + name) }
        }
        visit(Gymcard.self, path: "")
        #expect(missing.isEmpty)
    }
}

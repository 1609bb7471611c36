import ArgumentParser
import Foundation
import Testing

@testable import GymcardCLI

/// The root names a super-command only while arguments that ask for no completion script are parsed, so
/// that argument-parser skips its two trial parses, and help and errors are worded from the plain root.
@Suite("Quick root parse")
struct QuickRootParseTests {
    @Test("a command's arguments are parsed with the quick root, and the root is plain again afterwards")
    func quickWhileParsing() throws {
        var seen: String?
        let command = try QuickRootParse.parse(["show", "--id", "905123456", "--png", "card.png"]) {
            seen = Gymcard.configuration._superCommandName
            return try Gymcard.parseAsRoot($0)
        }
        #expect(command is Show)
        #expect(seen == "gymcard")
        #expect(Gymcard.configuration._superCommandName == nil)
        #expect(!QuickRootParse.isActive)
    }

    @Test("a completion-script request is parsed with the plain root and still answered")
    func completionScript() {
        for arguments in [["--generate-completion-script", "bash"], ["--generate-completion-script=zsh"]] {
            var seen: String? = "unset"
            #expect {
                _ = try QuickRootParse.parse(arguments) {
                    seen = Gymcard.configuration._superCommandName
                    return try Gymcard.parseAsRoot($0)
                }
            } throws: { error in
                Gymcard.exitCode(for: error) == .success && Gymcard.message(for: error).contains("gymcard")
            }
            #expect(seen == nil)
        }
    }

    @Test("help and a usage error are worded from the plain root after a quick parse")
    func wording() {
        #expect {
            _ = try QuickRootParse.parse(["show", "--bogus"]) { try Gymcard.parseAsRoot($0) }
        } throws: { error in
            Gymcard.message(for: error).contains("--bogus")
        }
        #expect(Gymcard.helpMessage(for: Show.self).contains("USAGE: gymcard show"))
        #expect(!Gymcard.helpMessage(for: Show.self).contains("gymcard gymcard"))
    }
}

/// What ArgumentParserInternals.swift relies on, each checked so that a new argument-parser fails here,
/// loudly and by name, rather than as a wrong line in front of a user.
@Suite("What gymcard relies on in argument-parser")
struct ArgumentParserRelianceTests {
    @Test("the pin in Package.swift is the version ArgumentParserInternals.swift was checked against")
    func pin() throws {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let pin = try #require(
            text.firstMatch(of: /swift-argument-parser", exact: "([0-9.]+)"/).map { String($0.1) },
            "Package.swift must pin swift-argument-parser exactly")
        #expect(
            pin == ArgumentParserInternals.pinnedVersion,
            """
            argument-parser is pinned to \(pin), but ArgumentParserInternals.swift was checked against \
            \(ArgumentParserInternals.pinnedVersion): re-check _superCommandName, _commandName and the \
            usage errors' wording there, then change pinnedVersion
            """)
    }

    @Test(
        "a usage error's first line is the English text UsageLine rewords",
        arguments: [
            (["show", "--pgn"], "Unknown option '--pgn'. Did you mean '--png'?"),
            (["shwo"], "Unexpected argument 'shwo'"),
            (["history", "exprot"], "Unexpected argument 'exprot'"),
        ])
    func usageErrorWording(arguments: [String], firstLine: String) {
        #expect {
            _ = try QuickRootParse.parse(arguments) { try Gymcard.parseAsRoot($0) }
        } throws: { error in
            Gymcard.message(for: error).split(separator: "\n").first.map(String.init) == firstLine
        }
    }

    @Test("_commandName is each command's configured name")
    func commandNames() {
        func visit(_ command: any ParsableCommand.Type) {
            #expect(command._commandName == command.configuration.commandName)
            command.configuration.subcommands.forEach(visit)
        }
        visit(Gymcard.self)
    }
}

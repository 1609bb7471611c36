import ArgumentParser
import Console
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

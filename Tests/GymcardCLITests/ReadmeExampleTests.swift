import ArgumentParser
import Foundation
import Testing

@testable import GymcardCLI

/// Every `gymcard …` line in the README's examples is a command line gymcard takes: parsed in-process
/// with the real command tree and its `validate()` rules (what each does is the end-to-end tests'; many
/// need a card, a terminal or the network).
@Suite("The README's examples")
struct ReadmeExampleTests {
    /// The README's example lines: `gymcard` and its arguments, up to a comment or a redirection.
    static let examples: [[String]] = {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        var inBlock = false
        var lines: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard inBlock, line.hasPrefix("gymcard ") else { continue }
            let command = line.split(separator: "#", maxSplits: 1)[0]
            let words = command.split(separator: " ").map(String.init).dropFirst()
            lines.append(Array(words.prefix { $0 != ">" && $0 != "<" && $0 != "|" }))
        }
        return lines
    }()

    @Test("the README has examples of every command")
    func everyCommand() {
        let named = Set(Self.examples.compactMap { $0.first })
        let commands = Gymcard.configuration.subcommands.compactMap { $0.configuration.commandName }
        #expect(Set(commands).subtracting(named).isEmpty, "no example: \(Set(commands).subtracting(named))")
    }

    @Test("each example parses and passes its command's checks", arguments: examples)
    func parses(_ arguments: [String]) throws {
        _ = try QuickRootParse.parse(arguments) { try Gymcard.parseAsRoot($0) }
    }
}

import CardVault
import Codabar
import Foundation
import Glibc
import Storage
import Symbologies
import Symbols
import TestSupport
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import GymcardCore

/// What `set`, `card` and `render` read before they draw or store, in-process.
@Suite struct CardInputTests {
    @Test func anIDIsTheFirstLineOfAPipeElseWhatTheTerminalAnswers() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let piped = "905123456\nthe passphrase\n"
        _ = piped.withCString { write(ends[1], $0, strlen($0)) }
        close(ends[1])
        #expect(
            try CardSymbol.readID(
                from: ends[0],
                ask: {
                    Issue.record("asked"); return nil
                }) == "905123456")
        // The passphrase's line stays for --passphrase-fd 0.
        #expect(Passphrases.firstLine(of: ends[0]) == Array("the passphrase".utf8))
        // Nothing left on the pipe: the terminal is asked; no terminal, no ID.
        #expect(try CardSymbol.readID(from: ends[0], ask: { Array("A1234B".utf8) }) == "A1234B")
        #expect(throws: NoIDGiven.self) { try CardSymbol.readID(from: ends[0], ask: { nil }) }
    }

    @Test func aPassphraseFileThatIsADirectoryIsRefusedNotReadAsEmpty() throws {
        let folder = try TemporaryDirectory()
        #expect {
            try Passphrases.firstLine(ofFile: folder.path)
        } throws: { ($0 as? Passphrases.UnreadableFile)?.reason == "it is a directory" }
        let file = folder.path + "/pass"
        try Data("open sesame\nsecond line\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try Passphrases.firstLine(ofFile: file) == Array("open sesame".utf8))
        #expect {
            try Passphrases.firstLine(ofFile: folder.path + "/none")
        } throws: { ($0 as? Passphrases.UnreadableFile)?.reason == "No such file or directory" }
    }

    @Test func cardOpensTheCardOnlyWhenAPassphraseCanBeHad() throws {
        let directory = try TemporaryDirectory()
        let context = try Context(
            environment: ["XDG_DATA_HOME": directory.path, "HOME": directory.path], online: nil
        ) {
            _ in
        }
        let noTerminal = Passphrases(ask: { _ in nil }, canAsk: { false })
        #expect(throws: VaultError.noCard) {
            try CardReport.read(CardAccess(context: context, passphrases: noTerminal), locked: false)
        }
        let path = directory.path + "/pass"
        try "open sesame\n".write(toFile: path, atomically: true, encoding: .utf8)
        let scripted = CardAccess(
            quick: context,
            passphrases: Passphrases(
                script: PassphraseOrigin(file: path, descriptor: 7), ask: { _ in nil }, canAsk: { false }))
        #expect(
            try scripted.store(try CodabarSymbol(normalizing: "905123456"), label: "Gym", noPassphrase: false)
        )
        #expect(try CardReport.read(scripted, locked: false).record?.label == "Gym")
        #expect(try CardReport.read(scripted, locked: true).record == nil)
        // Encrypted, with no script and no terminal: only what the file system says, and no question.
        let report = try CardReport.read(CardAccess(quick: context, passphrases: noTerminal), locked: false)
        #expect(report.record == nil && report.encrypted)
        #expect(PassphraseOrigin(file: path, descriptor: 7) == .file(path))
        #expect(PassphraseOrigin(file: nil, descriptor: 7) == .descriptor(7))
        #expect(PassphraseOrigin(file: nil, descriptor: nil) == nil)
    }

    @Test func aBatchListIsCountedForProgressExceptOnStandardInput() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/ids.txt"
        try "# members\n905123456\n\nA1234B\n".write(toFile: path, atomically: true, encoding: .utf8)
        let counted = try BatchList(path, counting: true)
        #expect(counted.source == path && counted.idCount == 2)
        #expect(try BatchList(path, counting: false).idCount == nil)
        #expect(throws: BatchProblem.self) { try BatchList(directory.path + "/missing.txt", counting: true) }
        // libzint is installed here: every symbology can be drawn.
        for symbology in [Symbology.codabar, .code128, .qr] { try CardDrawing.requireDrawer(for: symbology) }
    }

    @Test func shareSaysTheCodeIsTheCardOnlyWhenThereIsACard() throws {
        let directory = try TemporaryDirectory()
        let context = try Context(
            environment: ["XDG_DATA_HOME": directory.path, "HOME": directory.path], online: nil
        ) {
            _ in
        }
        let access = CardAccess(
            quick: context, passphrases: Passphrases(ask: { _ in nil }, canAsk: { false }))
        var said: [String] = []
        #expect(throws: VaultError.noCard) { try CardShare(access, say: { said.append($0) }) }
        #expect(said.isEmpty)
        _ = try access.store(try CodabarSymbol(normalizing: "905123456"), label: "Gym", noPassphrase: true)
        let share = try CardShare(access, say: { said.append($0) })
        #expect(said == [CardShare.notice])
        #expect(share.link.hasPrefix("https://catima.app/share#"))
    }
}

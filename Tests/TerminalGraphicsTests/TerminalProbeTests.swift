import Foundation
import Glibc
import TerminalGraphics
import TestSupport
import Testing

@Suite("The terminal probe")
struct TerminalProbeTests {
    struct Answer: Sendable, CustomTestStringConvertible {
        var name: String
        var reply: String
        var expected: TerminalCapabilities
        var testDescription: String { name }
    }

    static let kitty = "\u{1B}_Gi=31;OK\u{1B}\\"

    static func capabilities(
        kitty: Bool = false, sixel: Bool = false, text: PixelSize? = nil, sixelMaximum: PixelSize? = nil
    ) -> TerminalCapabilities {
        var result = TerminalCapabilities()
        result.answered = true
        result.kittyGraphics = kitty
        result.sixel = sixel
        result.textAreaPixels = text
        result.sixelMaximum = sixelMaximum
        return result
    }

    static let answers: [Answer] = [
        Answer(
            name: "kitty", reply: kitty + "\u{1B}[4;800;1200t\u{1B}[?62;c",
            expected: capabilities(kitty: true, text: PixelSize(width: 1200, height: 800))),
        Answer(
            name: "xterm -ti vt340",
            reply: "\u{1B}[4;700;1400t\u{1B}[?2;0;1000;1000S\u{1B}[?63;1;2;3;4;6;9;15;22c",
            expected: capabilities(
                sixel: true, text: PixelSize(width: 1400, height: 700),
                sixelMaximum: PixelSize(width: 1000, height: 1000))),
        Answer(name: "neither (plain xterm)", reply: "\u{1B}[?1;2c", expected: capabilities()),
        Answer(
            name: "kitty error is not OK", reply: "\u{1B}_Gi=31;ENODATA:x\u{1B}\\\u{1B}[?62c",
            expected: capabilities()),
        Answer(
            name: "a key typed in between", reply: "q\u{1B}[?1;4c", expected: capabilities(sixel: true)),
    ]

    @Test("answers are read as the protocols say", arguments: answers)
    func parse(_ answer: Answer) {
        #expect(TerminalProbe.parse(Array(answer.reply.utf8)) == answer.expected)
    }

    @Test(
        "late answers are not a key press; keys (letters, arrows, Ctrl-C) and unfinished sequences are",
        arguments: [
            ("\u{1B}[?62;c", true), ("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;594;999t\u{1B}[?62;c", true),
            ("\u{1B}[?2;0;1000;1000S", true), ("q", false), ("\u{1B}[A", false), ("\u{03}", false),
            ("\u{1B}", false), ("\u{1B}[?62", false), ("\u{1B}[?1;2cx", false), ("", false),
        ])
    func lateAnswers(_ input: String, _ isAnswer: Bool) {
        #expect(TerminalProbe.isOnlyAnswers(Array(input.utf8)) == isAnswer)
    }

    @Test("nothing, or a reply cut short, is not an answer")
    func incomplete() {
        #expect(TerminalProbe.parse([]) == TerminalCapabilities())
        #expect(!TerminalProbe.parse(Array("\u{1B}[?1;2".utf8)).answered)
    }

    @Test("the queries: kitty's, the text area, sixel geometry, then DA1 last; inside tmux wrapped but DA1")
    func queries() {
        let plain = TerminalProbe.queries(throughTmux: false)
        #expect(plain.hasPrefix(KittyGraphics.query))
        #expect(plain.hasSuffix("\u{1B}[c"))
        let tmux = TerminalProbe.queries(throughTmux: true)
        #expect(tmux.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        #expect(tmux.hasSuffix("\u{1B}\\\u{1B}[c"))
    }

    /// A fake terminal on the master side of a pty: it waits for the DA1 request, then writes `reply`
    /// (or nothing). The probe runs on the slave side in raw mode, as the turnstile view puts it.
    static func probeFakeTerminal(reply: String?) throws -> (TerminalCapabilities, milliseconds: Double) {
        var master: Int32 = -1
        var slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer {
            close(master)
            close(slave)
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        let answerer = Thread { [master] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while !String(decoding: received, as: UTF8.self).hasSuffix("\u{1B}[c") {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                received += buffer[..<count]
            }
            if let reply { _ = Array(reply.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
        }
        answerer.start()
        let started = Date()
        let result = TerminalProbe.probe(descriptor: slave, throughTmux: false)
        return (result, Date().timeIntervalSince(started) * 1000)
    }

    @Test("on a pty: a fake terminal answering kitty, sixel or neither is recognised")
    func fakeTerminal() async throws {
        for answer in Self.answers.prefix(3) {
            let reply = answer.reply
            let (result, _) = try await OffThePool.run { try Self.probeFakeTerminal(reply: reply) }
            #expect(result == answer.expected, "\(answer.name)")
        }
    }

    @Test("on a pty: a terminal that answers nothing costs about 100 ms, never a stall")
    func silentTerminal() async throws {
        let (result, milliseconds) = try await OffThePool.run { try Self.probeFakeTerminal(reply: nil) }
        #expect(result == TerminalCapabilities())
        #expect(milliseconds >= 95 && milliseconds < 1000)
    }
}

import Foundation
import Glibc
import TerminalGraphics
import TestSupport
import Testing
import Turnstile

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
        kitty: Bool = false, sixel: Bool = false, text: PixelSize? = nil, sixelGeometry: PixelSize? = nil,
        sixelMaximum: PixelSize? = nil
    ) -> TerminalCapabilities {
        var result = TerminalCapabilities()
        result.answered = true
        result.kittyGraphics = kitty
        result.sixel = sixel
        result.textAreaPixels = text
        result.sixelGeometry = sixelGeometry
        result.sixelMaximum = sixelMaximum
        return result
    }

    /// What xterm 379 `-ti vt340` answered in a 120×36 window of 11 pt Noto Sans Mono (1324×796 px): the
    /// geometry clamped to the maximum, the maximum, DA1; nothing to `CSI 14 t` (window operations are off
    /// by default). Recorded with the probe's queries under Xvfb.
    static let xterm379 = "\u{1B}[?2;0;1000;792S\u{1B}[?2;0;1000;1000S\u{1B}[?63;1;2;4;6;9;15;16;22;28c"

    static let answers: [Answer] = [
        Answer(
            name: "kitty", reply: kitty + "\u{1B}[4;800;1200t\u{1B}[?62;c",
            expected: capabilities(kitty: true, text: PixelSize(width: 1200, height: 800))),
        Answer(
            name: "xterm 379 -ti vt340 (recorded)", reply: xterm379,
            expected: capabilities(
                sixel: true, sixelGeometry: PixelSize(width: 1000, height: 792),
                sixelMaximum: PixelSize(width: 1000, height: 1000))),
        Answer(
            name: "a text area, then the geometry and a maximum of 10000",
            reply: "\u{1B}[4;700;1400t\u{1B}[?2;0;1400;700S\u{1B}[?2;0;10000;10000S\u{1B}[?62;4c",
            expected: capabilities(
                sixel: true, text: PixelSize(width: 1400, height: 700),
                sixelGeometry: PixelSize(width: 1400, height: 700),
                sixelMaximum: PixelSize(width: 10000, height: 10000))),
        Answer(
            name: "a failed geometry keeps its place: the second answer is still the maximum",
            reply: "\u{1B}[?2;3;0S\u{1B}[?2;0;2000;1500S\u{1B}[?62;4c",
            expected: capabilities(sixel: true, sixelMaximum: PixelSize(width: 2000, height: 1500))),
        Answer(
            name: "one answer only is the geometry",
            reply: "\u{1B}[?2;0;800;480S\u{1B}[?62;4c",
            expected: capabilities(sixel: true, sixelGeometry: PixelSize(width: 800, height: 480))),
        Answer(
            name: "plain xterm: both sixel queries fail (status 3)",
            reply: "\u{1B}[?2;3;0S\u{1B}[?2;3;0S\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c",
            expected: capabilities()),
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

    @Test(
        "the queries: kitty's, the text area, sixel geometry and maximum with their third parameter, then DA1 last; inside tmux wrapped but DA1"
    )
    func queries() {
        let plain = TerminalProbe.queries(throughTmux: false)
        #expect(plain == KittyGraphics.query + "\u{1B}[14t\u{1B}[?2;1;0S\u{1B}[?2;4;0S\u{1B}[c")
        let tmux = TerminalProbe.queries(throughTmux: true)
        #expect(tmux.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        #expect(tmux.hasSuffix("\u{1B}\\\u{1B}[c"))
    }

    /// A fake terminal on the master side of a pty: it waits for the DA1 request, then writes what
    /// `answer` makes of the queries received (or nothing). The probe runs on the slave side in raw mode,
    /// as the turnstile view puts it.
    static func probeFakeTerminal(answer: @escaping @Sendable (String) -> String?) throws -> (
        TerminalCapabilities, milliseconds: Double
    ) {
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
            if let reply = answer(String(decoding: received, as: UTF8.self)) {
                _ = Array(reply.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            }
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
            let (result, _) = try await OffThePool.run { try Self.probeFakeTerminal { _ in reply } }
            #expect(result == answer.expected, "\(answer.name)")
        }
    }

    /// Answers as xterm 379 `-ti vt340` in a 1324×796 window does (recorded under Xvfb): each
    /// XTSMGRAPHICS sixel query in the form xterm takes, with its third parameter; nothing to one without
    /// it (`CSI ? 2 ; 1 S`), nor to `CSI 14 t`; then DA1.
    static func xterm379(_ queries: String) -> String {
        var reply = ""
        var rest = Substring(queries)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let final = rest.unicodeScalars.firstIndex(where: { (0x40...0x7E).contains($0.value) })
            else { break }
            let sequence = String(rest[...final])
            rest = rest[rest.index(after: final)...]
            switch sequence {
            case "?2;1;0S": reply += "\u{1B}[?2;0;1000;792S"
            case "?2;4;0S": reply += "\u{1B}[?2;0;1000;1000S"
            case "c": reply += "\u{1B}[?63;1;2;4;6;9;15;16;22;28c"
            default: break
            }
        }
        return reply
    }

    @Test("on a pty: a terminal that answers the sixel queries only as xterm 379 takes them gives its limit")
    func xtermAnswersOnlyTheFullQuery() async throws {
        let (result, _) = try await OffThePool.run { try Self.probeFakeTerminal(answer: Self.xterm379) }
        #expect(result.sixel)
        #expect(result.sixelGeometry == PixelSize(width: 1000, height: 792))
        #expect(result.sixelMaximum == PixelSize(width: 1000, height: 1000))
        #expect(TurnstileRenderer.sixel.imageLimit(result) == PixelSize(width: 1000, height: 1000))
    }

    @Test("the image limit: sixel takes the maximum, else the geometry, else xterm's default; others none")
    func imageLimit() {
        var said = TerminalCapabilities()
        said.sixel = true
        #expect(TurnstileRenderer.sixel.imageLimit(said) == PixelSize(width: 1000, height: 1000))
        said.sixelGeometry = PixelSize(width: 1400, height: 700)
        #expect(TurnstileRenderer.sixel.imageLimit(said) == PixelSize(width: 1400, height: 700))
        said.sixelMaximum = PixelSize(width: 10000, height: 10000)
        #expect(TurnstileRenderer.sixel.imageLimit(said) == PixelSize(width: 10000, height: 10000))
        for renderer in [TurnstileRenderer.kitty, .iterm, .blocks] {
            #expect(renderer.imageLimit(said) == nil)
        }
    }

    @Test("on a pty: a terminal that answers nothing costs about 100 ms, never a stall")
    func silentTerminal() async throws {
        let (result, milliseconds) = try await OffThePool.run { try Self.probeFakeTerminal { _ in nil } }
        #expect(result == TerminalCapabilities())
        #expect(milliseconds >= 95 && milliseconds < 1000)
    }
}

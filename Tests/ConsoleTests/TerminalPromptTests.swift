import Console
import Foundation
import Glibc
import Synchronization
import Testing

/// A pseudo-terminal: the test types on its main side, the prompt asks on the device at `path`, as it
/// would on `/dev/tty`.
private final class PseudoTerminal {
    let main: Int32
    let path: String

    init() throws {
        // posix_openpt(3) and its kin are behind _XOPEN_SOURCE, which Swift's Glibc module does not define.
        let openMain = try Self.libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        let grant = try Self.libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        let unlock = try Self.libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        // ptsname_r: the tests run in parallel, and ptsname's buffer is shared.
        let name = try Self.libc(
            "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
        main = openMain(O_RDWR | O_NOCTTY)
        try #require(main >= 0)
        try #require(grant(main) == 0 && unlock(main) == 0)
        var buffer = [CChar](repeating: 0, count: 128)
        try #require(name(main, &buffer, buffer.count) == 0)
        path = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func libc<Function>(_ name: String, as type: Function.Type) throws -> Function {
        unsafeBitCast(try #require(dlsym(nil, name)), to: type)
    }

    deinit { close(main) }

    /// What the prompt has written, read until `text` is in it (10 s at most). Until the prompt opens
    /// its side, this side reads nothing (poll says it hung up): it looks again 10 ms later.
    func read(until text: String) -> String {
        var seen: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while !String(decoding: seen, as: UTF8.self).contains(text), ContinuousClock.now < deadline {
            var ready = pollfd(fd: main, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = poll(&ready, 1, 100) == 1 ? Glibc.read(main, &buffer, buffer.count) : 0
            if count > 0 { seen += buffer[..<count] } else { usleep(10_000) }
        }
        return String(decoding: seen, as: UTF8.self)
    }

    /// Types `text` as a person would.
    func type(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(main, $0.baseAddress, $0.count) }
    }

    /// Whether the terminal shows what is typed now.
    var echoes: Bool {
        let descriptor = open(path, O_RDWR | O_NOCTTY)
        defer { close(descriptor) }
        var settings = termios()
        return tcgetattr(descriptor, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Runs `ask` on a thread of its own (it blocks on the terminal while the test types), and returns a
    /// way to wait for its answer.
    func asking<Answer: Sendable>(_ ask: @escaping @Sendable (String) -> Answer) -> @Sendable () -> Answer? {
        let answer = Mutex<Answer?>(nil)
        let done = DispatchSemaphore(value: 0)
        let path = path
        Thread.detachNewThread {
            let given = ask(path)
            answer.withLock { $0 = given }
            done.signal()
        }
        return {
            guard done.wait(timeout: .now() + 10) == .success else { return nil }
            return answer.withLock { $0 }
        }
    }
}

@Suite("Questions on the terminal, asked on a pseudo-terminal")
struct TerminalPromptTests {
    @Test func aPassphraseIsReadWithEchoOffAndTheEchoIsBackAfterwards() throws {
        let terminal = try PseudoTerminal()
        #expect(terminal.echoes)
        let answer = terminal.asking { path in
            try? TerminalPrompt.answer("Passphrase: ", echo: false, on: path)
        }
        #expect(terminal.read(until: "Passphrase: ").hasSuffix("Passphrase: "))
        #expect(!terminal.echoes)
        terminal.type("s3cret words\n")
        #expect(answer() == .some(.some(Array("s3cret words".utf8))))
        // Not shown as it was typed; the line the prompt ends with is.
        #expect(!terminal.read(until: "\n").contains("s3cret"))
        // Echo stays off while the passphrase is checked (what is typed meanwhile must not show), until
        // the next question that echoes or the exit.
        #expect(!terminal.echoes)
        let line = terminal.asking { TerminalPrompt.askLine("Label: ", on: $0) }
        _ = terminal.read(until: "Label: ")
        #expect(terminal.echoes)
        terminal.type("gym\n")
        #expect(line() == .some(.some("gym")))
        let again = terminal.asking { path in
            try? TerminalPrompt.answer("Passphrase: ", echo: false, on: path)
        }
        _ = terminal.read(until: "Passphrase: ")
        terminal.type("again\n")
        #expect(again() == .some(.some(Array("again".utf8))))
        #expect(!terminal.echoes)
        TerminalPrompt.restoreEcho()
        #expect(terminal.echoes)
    }

    @Test func ctrlDIsNoAnswerAndSaysNothingWasChanged() throws {
        let terminal = try PseudoTerminal()
        let answer = terminal.asking { path -> String in
            do {
                _ = try TerminalPrompt.answer("Member ID: ", echo: true, on: path)
                return "answered"
            } catch { return "\(error)" }
        }
        _ = terminal.read(until: "Member ID: ")
        terminal.type("\u{04}")
        #expect(answer() == "nothing was typed: the prompt was ended with Ctrl-D; nothing was changed")
        // Ctrl-D as a [y/N] question's answer is no.
        let confirmed = terminal.asking { TerminalPrompt.confirm("Delete? [y/N] ", on: $0) }
        _ = terminal.read(until: "[y/N] ")
        terminal.type("\u{04}")
        #expect(confirmed() == .some(.some(false)))
    }

    @Test(arguments: [
        ("y\n", true), ("YES\r\n", true), ("n\n", false), ("\n", false), ("yes please\n", false),
    ])
    func aYesOrNoQuestionTakesYOrYesInAnyCase(typed: String, meaning: Bool) throws {
        let terminal = try PseudoTerminal()
        let confirmed = terminal.asking { TerminalPrompt.confirm("Replace it? [y/N] ", on: $0) }
        _ = terminal.read(until: "[y/N] ")
        terminal.type(typed)
        #expect(confirmed() == .some(.some(meaning)))
    }

    @Test func withoutATerminalThereIsNoAnswerAndNoWait() throws {
        let missing = FileManager.default.temporaryDirectory.path + "/no-such-terminal-\(getpid())"
        #expect(TerminalPrompt.confirm("Delete? [y/N] ", on: missing) == nil)
        #expect(TerminalPrompt.askLine("Link: ", on: missing) == nil)
        #expect(try TerminalPrompt.answer("Member ID: ", echo: true, on: missing) == nil)
    }
}

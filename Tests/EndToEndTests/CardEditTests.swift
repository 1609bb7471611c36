import Codabar
import Foundation
import Storage
import TestSupport
import Testing

@testable import CardVault

/// Editing the stored card through the built binary: the label alone, the previous card, the questions
/// asked on a terminal (through pexpect on a pseudo-terminal) and what scripts get instead.
@Suite("Editing the stored card, end to end")
struct CardEditTests {
    static let photo = GymcardProcess.packageRoot.appendingPathComponent("samples/card-webcam.jpg").path

    func directory(_ home: TemporaryDirectory) -> String { home.path + "/data/gymcard" }

    func store(_ home: TemporaryDirectory) -> CardStore { CardStore(directory: directory(home)) }

    /// Stores `id` in-process at a tiny work factor (the CLI writes 2^18, seconds in a debug build), under
    /// `passphrase` or in the clear.
    func seed(_ home: TemporaryDirectory, _ id: String, passphrase: String?, label: String? = nil) throws {
        let record = CardRecord(symbol: try CodabarSymbol(normalizing: id), label: label)
        try store(home).save(record, passphrase: passphrase.map { Array($0.utf8) }, workFactor: 10)
    }

    /// `card --json` as a dictionary (with `--passphrase-file` when given).
    func cardJSON(_ gymcard: GymcardProcess, passphraseFile: String? = nil) async throws -> [String: String] {
        let result = try await gymcard.run(
            ["card", "--json"] + (passphraseFile.map { ["--passphrase-file", $0] } ?? []))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 is NSNull ? "null" : "\($0)" }
    }

    /// Every file of the card's directory is 0600 and the directory 0700.
    func expectPrivate(_ home: TemporaryDirectory, after operation: String) throws {
        let mode = { (path: String) in
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode(directory(home)) == 0o700, "after \(operation)")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory(home)) {
            #expect(try mode(directory(home) + "/" + name) == 0o600, "\(name) after \(operation)")
        }
    }

    @Test("card --label changes the label alone, with the passphrase; --label \"\" (card or set) clears it")
    func label() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Data("open sesame\n".utf8).write(to: URL(fileURLWithPath: home.path + "/pw"))
        try seed(home, "905123456", passphrase: "open sesame", label: "Old")
        let before = try await cardJSON(gymcard, passphraseFile: home.path + "/pw")

        let label = try await gymcard.run([
            "card", "--label", "Hokie Passport", "--passphrase-file", home.path + "/pw",
        ])
        #expect(label.status == 0, "\(label.stderr)")
        #expect(label.stderrLines == ["gymcard: the card is now labelled “Hokie Passport”"])
        #expect(label.stdout.isEmpty)
        try expectPrivate(home, after: "card --label")
        var after = try await cardJSON(gymcard, passphraseFile: home.path + "/pw")
        #expect(after["label"] == "Hokie Passport")
        #expect(after["encrypted"] == "1", "the card keeps its passphrase")
        for key in ["id", "displayId", "symbology", "created", "updated"] {
            #expect(after[key] == before[key], "\(key)")
        }
        // Without the passphrase nothing is changed.
        let locked = try await gymcard.run(["card", "--label", "Other"])
        #expect(locked.status == 64, "\(locked.stderr)")

        let cleared = try await gymcard.run(["card", "--label", "", "--passphrase-file", home.path + "/pw"])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stderrLines == ["gymcard: the card now has no label"])
        after = try await cardJSON(gymcard, passphraseFile: home.path + "/pw")
        #expect(after["label"] == "null")
        #expect(after["id"] == "A905123456B")
        #expect(try store(home).load { Array("open sesame".utf8) }.record.label == nil)

        // set --label "" on an unencrypted card: no label stored, and `card` shows none.
        let plain = try TemporaryDirectory()
        let script = GymcardProcess(home: plain.path)
        #expect(try await script.run(["set", "--no-passphrase", "111111111", "--label", "Gym"]).status == 0)
        let set = try await script.run(["set", "--no-passphrase", "111111111", "--label", ""])
        #expect(set.status == 0, "\(set.stderr)")
        try expectPrivate(plain, after: "set --label \"\"")
        #expect(try store(plain).load { [] }.record.label == nil)
        let card = try await script.run(["card"])
        #expect(
            card.stdoutText.contains("Label:   none (set one with gymcard card --label <text>)"),
            "\(card.stdoutText)")
    }

    @Test("card --restore swaps the card with the previous one and back; without one: 66 and one line")
    func restore() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let none = try await gymcard.run(["card", "--restore"])
        #expect(none.status == 66)
        #expect(
            none.stderrLines == [
                "gymcard: no stored card; store one with `gymcard set` or `gymcard scan PHOTO --save`"
            ])

        #expect(try await gymcard.run(["set", "--no-passphrase", "111111111"]).status == 0)
        let only = try await gymcard.run(["card", "--restore"])
        #expect(only.status == 66)
        #expect(only.stderrLines.count == 1)
        #expect(only.stderr.hasPrefix("gymcard: no previous card is kept"), "\(only.stderr)")
        #expect(try store(home).load { [] }.record.id == "A111111111B")

        let replace = try await gymcard.run(["set", "--no-passphrase", "222222222"])
        #expect(replace.status == 0)
        let ids = [try await cardJSON(gymcard)["id"]]
        let first = try await gymcard.run(["card", "--restore"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty)
        #expect(first.stderrLines.count == 1)
        #expect(first.stderr.contains("`gymcard card --restore` swaps them back"), "\(first.stderr)")
        #expect(!first.stderr.contains("111111111") && !first.stderr.contains("1111-11111"))
        try expectPrivate(home, after: "card --restore")
        let restored = try await cardJSON(gymcard)["id"]
        #expect(try await gymcard.run(["card", "--restore"]).status == 0)
        try expectPrivate(home, after: "card --restore twice")
        let back = try await cardJSON(gymcard)["id"]
        #expect(ids + [restored, back] == ["A222222222B", "A111111111B", "A222222222B"])
        // Changing the card's label, or storing the same ID again, keeps the other card as the previous one.
        #expect(try await gymcard.run(["card", "--label", "Gym"]).status == 0)
        #expect(try await gymcard.run(["set", "--no-passphrase", "222222222"]).status == 0)
        #expect(try await gymcard.run(["card", "--restore"]).status == 0)
        #expect(try await cardJSON(gymcard)["id"] == "A111111111B")
    }

    @Test(
        "card --restore of files left readable by others (put back by hand): both are 0600 afterwards"
    )
    func restoreMakesTheCardPrivate() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["set", "--no-passphrase", "111111111"]).status == 0)
        #expect(try await gymcard.run(["set", "--no-passphrase", "222222222"]).status == 0)
        let backup = store(home).plainPath + ".bak"
        #expect(chmod(backup, 0o644) == 0)
        // The card it moves aside, left readable and writable by others, becomes a private previous card.
        #expect(chmod(store(home).plainPath, 0o666) == 0)
        let result = try await gymcard.run(["card", "--restore"])
        #expect(result.status == 0, "\(result.stderr)")
        try expectPrivate(home, after: "card --restore")
        let shown = try await gymcard.run(["card"])
        #expect(shown.status == 0)
        #expect(!shown.stderr.contains("can be read by other users"), "\(shown.stderr)")
        #expect(try await cardJSON(gymcard)["id"] == "A111111111B")
    }

    @Test(
        "a directory in the card's place: card --restore swaps the previous card back; forget removes it when empty"
    )
    func directoryInTheCardsPlace() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase", "111111111"])
        _ = try await gymcard.run(["set", "--no-passphrase", "222222222"])
        let path = home.path + "/data/gymcard/card.json"
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(try await gymcard.run(["show", "--png", "-", "--force"]).status == 65)
        let restore = try await gymcard.run(["card", "--restore"])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try await cardJSON(gymcard)["id"] == "A111111111B")
        // The directory is now the previous card; with a file in it, forget says it cannot remove it.
        try Data("x".utf8).write(to: URL(fileURLWithPath: path + ".bak/inside"))
        let stuck = try await gymcard.run(["forget", "-y"])
        #expect(stuck.status == 74, "\(stuck.stderr)")
        #expect(stuck.stderr.contains("card.json.bak could not be removed"), "\(stuck.stderr)")
        try FileManager.default.removeItem(atPath: path + ".bak/inside")
        #expect(try await gymcard.run(["forget", "-y"]).status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/gymcard").filter {
                $0.hasPrefix("card")
            }.isEmpty)
    }

    @Test("card --restore opens neither card: each keeps the passphrase it was stored with")
    func restoreKeepsEachPassphrase() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try seed(home, "111111111", passphrase: "first words")
        try seed(home, "222222222", passphrase: "second words")
        // No terminal and no passphrase source: nothing is asked.
        let result = try await gymcard.run(["card", "--restore"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("with the passphrase it was stored with"), "\(result.stderr)")
        try expectPrivate(home, after: "card --restore")
        #expect(try store(home).load { Array("first words".utf8) }.record.id == "A111111111B")
        #expect(throws: VaultError.wrongPassphrase) { try store(home).load { Array("second words".utf8) } }
        let backup = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store(home).encryptedPath + ".bak")))
        let opened = try AgeFile.decrypt(backup, passphrase: { Array("second words".utf8) })
        #expect(try CardRecord.decoded(opened).id == "A222222222B")
    }

    @Test(
        "card --restore with a damaged previous card: 65 and one line, neither file touched",
        arguments: [true, false])
    func restoreRefusesADamagedPrevious(encrypted: Bool) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try seed(home, "111111111", passphrase: encrypted ? "first words" : nil)
        try seed(home, "222222222", passphrase: encrypted ? "first words" : nil)
        let path = (encrypted ? store(home).encryptedPath : store(home).plainPath)
        // Cut short, as a full disk or a killed copy leaves it.
        let whole = try Data(contentsOf: URL(fileURLWithPath: path + ".bak"))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: path + ".bak"))
        let before = try [path, path + ".bak"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let result = try await gymcard.run(["card", "--restore"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("gymcard: the previous card's file is damaged ("), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was swapped"), "\(result.stderr)")
        #expect(!result.stderr.contains("111111111") && !result.stderr.contains("222222222"))
        let after = try [path, path + ".bak"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before)
        #expect(try store(home).load { Array("first words".utf8) }.record.id == "A222222222B")
    }

    @Test("card --restore with a FIFO or a directory as the previous card: 65 and one line, no wait")
    func restoreRefusesWhatIsNotAFile() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try seed(home, "111111111", passphrase: "first words")
        try seed(home, "222222222", passphrase: "first words")
        let backup = store(home).encryptedPath + ".bak"
        for make in [{ mkfifo(backup, 0o600) }, { mkdir(backup, 0o700) }] {
            #expect(unlink(backup) == 0 || rmdir(backup) == 0)
            #expect(make() == 0)
            // A FIFO opened for reading waits for a writer: the run's timeout is the hang detector.
            let result = try await gymcard.run(["card", "--restore"], timeoutSeconds: 120)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("is not a regular file"), "\(result.stderr)")
            #expect(try store(home).load { Array("first words".utf8) }.record.id == "A222222222B")
        }
    }

    @Test("a script's scan --save or set over another ID replaces it and says where it is kept")
    func replacingInScripts() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["set", "--no-passphrase", "111111111"]).status == 0)
        let scan = try await gymcard.run(["scan", Self.photo, "--save", "--no-passphrase"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdoutText == "A905123456B\n")
        #expect(
            scan.stderr.contains(
                "Stored 9051-23456.\ngymcard: the card it replaced is kept as the previous card; "
                    + "`gymcard card --restore` brings it back\n"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("111111111") && !scan.stderr.contains("1111-11111"))
        try expectPrivate(home, after: "scan --save")
        // The same ID again replaces nothing else: nothing to say.
        let again = try await gymcard.run(["set", "--no-passphrase", "905123456"])
        #expect(!again.stderr.contains("previous card"), "\(again.stderr)")
        let set = try await gymcard.run(["set", "--no-passphrase", "222222222"])
        #expect(set.stderr.contains("the card it replaced is kept as the previous card"), "\(set.stderr)")
        #expect(try await gymcard.run(["card", "--restore"]).status == 0)
        #expect(try await cardJSON(gymcard)["id"] == "A905123456B")
    }

    /// Runs a pexpect script with the binary, the home folder and the sample photo as arguments; returns
    /// the lines it printed.
    func pexpect(_ script: String, home: TemporaryDirectory) async throws -> [String] {
        let prelude = """
            import os, pexpect, sys
            gymcard, home, photo = sys.argv[1], sys.argv[2], sys.argv[3]
            env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data")
            def spawn(*arguments):
                return pexpect.spawn(gymcard, list(arguments), env=env, timeout=600)
            def end(child):
                child.expect(pexpect.EOF); child.close()
                return child.before.decode()

            """
        let (status, output, error) = try await Interop.runPython(
            prelude + script, [GymcardProcess.executable.path, home.path, Self.photo])
        #expect(status == 0, "\(error)")
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("on a terminal, scan --save asks before it replaces another ID: no keeps it, yes replaces it")
    func scanSaveAsks() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(
            try await gymcard.run(["set", "--no-passphrase", "111111111", "--label", "Old card"]).status == 0)
        let lines = try await pexpect(
            """
            import subprocess
            def scan(name, answer, *flags):
                child = spawn("scan", photo, "--save", *flags)
                if child.expect([r"\\[y/N\\] ", pexpect.EOF]) == 0:
                    print(name, "asked", repr(child.before.decode().splitlines()[-1]))
                    child.sendline(answer)
                    said = end(child)
                else:
                    child.close(); said = child.before.decode()
                print(name, "status", child.exitstatus)
                print(name, "said", repr(said))
                print(name, "stored", open(home + "/data/gymcard/card.json").read().count("A111111111B"))
                print(name, "labelled", open(home + "/data/gymcard/card.json").read().count("Old card"))
            scan("no", "n")
            scan("yes", "y")
            subprocess.run([gymcard, "card", "--restore"], env=env, check=True)
            scan("flag", "", "--yes")
            """, home: home)
        let question = try #require(lines.first { $0.hasPrefix("no asked ") }, "\(lines)")
        #expect(question.contains("Replace the stored card (“Old card”, stored "), "\(question)")
        #expect(question.contains("which has another ID? It is kept as the previous card."), "\(question)")
        #expect(!question.contains("111111111") && !question.contains("1111-11111"))
        #expect(lines.contains("no status 0"), "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("no said") && $0.contains("gymcard: kept the stored card") },
            "\(lines)")
        #expect(lines.contains("no stored 1"), "nothing changed: \(lines)")
        #expect(lines.contains { $0.hasPrefix("yes asked ") }, "\(lines)")
        #expect(lines.contains("yes status 0"), "\(lines)")
        let yes = try #require(lines.first { $0.hasPrefix("yes said") })
        #expect(yes.contains("Stored 9051-23456."), "\(yes)")
        #expect(yes.contains("`gymcard card --restore` brings it back"), "\(yes)")
        #expect(lines.contains("yes stored 0"), "\(lines)")
        // Another ID is another card: the old card's label stays with it, as the previous card.
        #expect(lines.contains("yes labelled 0"), "\(lines)")
        // --yes: replaced (the restored card) without a question, and said so.
        #expect(!lines.contains { $0.hasPrefix("flag asked") }, "\(lines)")
        #expect(lines.contains("flag status 0"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("flag said") && $0.contains("brings it back") }, "\(lines)")
        #expect(lines.contains("flag stored 0"), "\(lines)")
        try expectPrivate(home, after: "scan --save")
    }

    @Test(
        "Ctrl-D at the ID prompt ends on a line of its own; at a passphrase prompt it cancels, no try counted"
    )
    func endOfInput() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let home = try TemporaryDirectory()
        let lines = try await pexpect(
            """
            def cancel(name, prompt, *arguments):
                child = spawn(*arguments)
                child.expect(prompt); child.sendeof()
                if child.expect([pexpect.EOF, prompt, "left"]) != 0:
                    print(name, "asked again"); child.terminate(force=True); return
                child.close()
                said = child.before.decode()
                print(name, child.exitstatus, repr(said))
                print(name, "own line", all(line.startswith("gymcard: ") for line in said.splitlines() if "gymcard:" in line))
            cancel("id", "Member ID", "set", "--no-passphrase")
            cancel("new", "New passphrase", "set", "905123456")
            print("stored", os.path.exists(home + "/data/gymcard"))
            """, home: home)
        #expect(
            lines.contains { $0.hasPrefix("id 64 ") && $0.contains("the prompt was ended with Ctrl-D") },
            "\(lines)")
        #expect(lines.contains("id own line True"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("new 64 ") && $0.contains("no passphrase given") }, "\(lines)")
        #expect(lines.contains("new own line True"), "\(lines)")
        #expect(lines.contains("stored False"), "nothing was stored: \(lines)")

        try seed(home, "905123456", passphrase: "words")
        let unlock = try await pexpect(
            """
            child = spawn("show", "--png", home + "/c.png")
            child.expect("Passphrase for the stored card"); child.sendeof()
            if child.expect([pexpect.EOF, "Passphrase for the stored card", "left"]) != 0:
                print("asked again"); child.terminate(force=True)
            else:
                child.close(); print(child.exitstatus, repr(child.before.decode()))
            print("png", os.path.exists(home + "/c.png"))
            """, home: home)
        #expect(unlock.count == 2, "\(unlock)")
        #expect(unlock.first?.hasPrefix("64 ") == true, "\(unlock)")
        #expect(unlock.first?.contains("no passphrase given: the prompt was ended with Ctrl-D") == true)
        #expect(unlock.first?.contains("try") == false, "no try was counted: \(unlock)")
        #expect(unlock.last == "png False")
    }

    @Test("what is typed while a passphrase is checked does not show: echo stays off until the next try")
    func typeaheadDuringTheCheckStaysHidden() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let home = try TemporaryDirectory()
        // Stored by the CLI, at its own work factor: checking a passphrase takes scrypt's second or more.
        let words = home.path + "/words"
        try "right words\n".write(toFile: words, atomically: true, encoding: .utf8)
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["set", "905123456", "--passphrase-file", words]).status == 0)
        let lines = try await pexpect(
            """
            import time
            child = spawn("card")
            child.expect("Passphrase for the stored card: "); child.sendline("wrong words")
            # Typed while the wrong one is being checked, as people type the next try at once.
            time.sleep(0.3); child.send("TYPEDAHEAD")
            child.expect("Passphrase for the stored card: ")
            shown = child.before.decode()
            child.sendline("right words")
            said = end(child)
            print("shown", repr(shown)); print("said", repr(said)); print("status", child.exitstatus)
            """, home: home)
        let shown = try #require(lines.first { $0.hasPrefix("shown ") }, "\(lines)")
        #expect(shown.contains("wrong passphrase; try again"), "\(shown)")
        #expect(!lines.contains { $0.contains("TYPEDAHEAD") }, "\(lines)")
        #expect(lines.contains("status 0"), "\(lines)")
        // Echo is on again once gymcard has ended after a passphrase: the terminal is as it was.
        let echoed = try await pexpect(
            """
            child = pexpect.spawn("bash", ["--norc", "--noprofile", "-c", gymcard + " card; stty -a"],
                env=env, timeout=600)
            child.expect("Passphrase for the stored card: "); child.sendline("right words")
            settings = " " + end(child).replace("\\r", " ").replace("\\n", " ").replace(";", " ") + " "
            print("echo", " echo " in settings, " -echo " in settings, child.exitstatus)
            """, home: home)
        #expect(echoed.contains("echo True False 0"), "\(echoed)")
    }

    @Test("new passphrases typed differently are asked again, up to three times, and the typed ID is kept")
    func mismatchedPassphrases() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let home = try TemporaryDirectory()
        let lines = try await pexpect(
            """
            def typed(child, first, second):
                child.expect("New passphrase"); child.sendline(first)
                child.expect("Repeat"); child.sendline(second)
            child = spawn("set")
            child.expect("Member ID"); child.sendline("9051-23457")
            for _ in range(3): typed(child, "one", "two")
            print("three", repr(end(child)), child.exitstatus, os.path.exists(home + "/data/gymcard/card.age"))
            child = spawn("set")
            child.expect("Member ID"); child.sendline("9051-23457")
            typed(child, "one", "two")
            if child.expect([pexpect.EOF, "the two passphrases differ; type the new one again \\(2 left\\)"]) == 0:
                child.close(); print("gave up", child.exitstatus); sys.exit(0)
            typed(child, "same words", "same words")
            said = end(child)
            print("retried", child.exitstatus, said.strip().splitlines()[-1])
            """, home: home)
        let three = try #require(lines.first { $0.hasPrefix("three ") }, "\(lines)")
        #expect(three.hasSuffix(" 64 False"), "\(three)")
        #expect(three.contains("gymcard: the two passphrases differ; nothing was changed"), "\(three)")
        #expect(lines.contains("retried 0 Stored 9051-23457."), "\(lines)")
        try expectPrivate(home, after: "set")
        #expect(try store(home).load { Array("same words".utf8) }.record.id == "A905123457B")
    }
}

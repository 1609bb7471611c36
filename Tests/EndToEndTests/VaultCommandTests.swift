import Codabar
import Foundation
import Storage
import TestSupport
import Testing

@testable import CardVault

/// The stored card through the built binary. Passphrase runs cost one scrypt at 2^18 each (seconds in a
/// debug build), so these tests use few of them; tiny work factors are tested in CardVaultTests.
@Suite("The stored card, end to end")
struct VaultCommandTests {
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func store(_ home: TemporaryDirectory) -> CardStore { CardStore(directory: home.path + "/data/gymcard") }

    /// Stores `id` under `passphrase` in-process at a tiny work factor (the CLI always writes 2^18, about
    /// 3 s in a debug build): for tests about what comes after.
    func seed(_ home: TemporaryDirectory, _ id: String, passphrase: String) throws {
        let record = CardRecord(symbol: try CodabarSymbol(normalizing: id))
        try store(home).save(record, passphrase: Array(passphrase.utf8), workFactor: 10)
    }

    @Test("set with a passphrase file: an age file, 0600 in 0700, that age -d opens; show uses it")
    func scriptedPassphrase() async throws {
        let home = try TemporaryDirectory()
        try Self.write("open sesame\n", to: home.path + "/pw")
        let gymcard = GymcardProcess(home: home.path)
        let set = try await gymcard.run(
            ["set", "--passphrase-file", home.path + "/pw"], input: Data("9051-23456\n".utf8))
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.isEmpty, "stdout is data; the confirmation is said on stderr")
        #expect(set.stderr == "Stored 9051-23456.\n")
        let path = home.path + "/data/gymcard/card.age"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: home.path + "/data/gymcard")
        #expect(directory[.posixPermissions] as? Int == 0o700)
        if await Interop.pythonHas("pexpect") {
            let (status, output) = try await Interop.ageDecrypt(path, passphrase: "open sesame")
            #expect(status == 0)
            #expect(String(decoding: output, as: UTF8.self).contains("\"id\" : \"A905123456B\""))
        }
        let show = try await gymcard.run([
            "show", "--passphrase-file", home.path + "/pw", "--png", home.path + "/c.png",
        ])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(try decodeFile(home.path + "/c.png") == ["A905123456B"])
        try Self.write("not it\n", to: home.path + "/bad")
        let wrong = try await gymcard.run(["show", "--passphrase-file", home.path + "/bad", "--png", "-"])
        #expect(wrong.status == 77)
        #expect(wrong.stderrLines == ["gymcard: wrong passphrase (or the card file's key is damaged)"])
        #expect(wrong.stdout.isEmpty)
    }

    @Test("on a terminal: the ID and the passphrase twice are asked; show asks again; Ctrl-C restores echo")
    func terminal() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let home = try TemporaryDirectory()
        let script = """
            import os, pexpect, sys
            gymcard, home = sys.argv[1], sys.argv[2]
            env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data")
            child = pexpect.spawn(gymcard, ["set"], env=env, timeout=60)
            child.expect("Member ID"); child.sendline("9051 23457")
            for _ in range(3):
                child.expect("New passphrase"); child.sendline("one")
                child.expect("Repeat"); child.sendline("two")
            child.expect(pexpect.EOF); child.close()
            print("mismatch", child.exitstatus, os.path.exists(home + "/data/gymcard/card.age"))
            child = pexpect.spawn(gymcard, ["set"], env=env, timeout=60)
            child.expect("Member ID"); child.sendline("9051-23457")
            child.expect("New passphrase"); child.sendline("same words")
            child.expect("Repeat"); child.sendline("same words")
            child.expect(pexpect.EOF); child.close()
            print("set", child.exitstatus, child.before.decode().strip().splitlines()[-1])
            child = pexpect.spawn(gymcard, ["show", "--png", home + "/c.png"], env=env, timeout=60)
            child.expect("Passphrase"); child.sendline("")
            child.expect(r"the passphrase is empty; type it again \\(2 left\\)"); print("empty counted")
            child.expect("Passphrase"); child.sendline("wrong words")
            child.expect("try again"); child.expect("Passphrase"); child.sendline("same words")
            child.expect(pexpect.EOF); child.close()
            print("show", child.exitstatus)
            shell = pexpect.spawn("/bin/bash", ["--norc", "--noprofile"], env=env, timeout=60)
            shell.sendline(gymcard + " show; echo status=$?; stty -a | grep -o -- '-*echo ' | head -1")
            shell.expect("Passphrase"); shell.sendintr()
            shell.expect(r"status=([0-9]+)"); print("interrupted", shell.match.group(1).decode())
            shell.expect(r"(-?)echo "); print("after ctrl-c", shell.match.group(1).decode() + "echo")
            shell.sendline("exit"); shell.close()
            """
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, home.path])
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(status == 0, "\(error)")
        #expect(lines.contains("mismatch 64 False"), "\(lines)")
        #expect(lines.contains("set 0 Stored 9051-23457."), "\(lines)")
        #expect(lines.contains("empty counted"), "\(lines)")
        #expect(lines.contains("show 0"), "\(lines)")
        #expect(lines.contains("interrupted 130"), "\(lines)")
        #expect(lines.contains("after ctrl-c echo"), "\(lines)")
        #expect(try decodeFile(home.path + "/c.png") == ["A905123457B"])
    }

    @Test("no passphrase source and no terminal: a clear error at once, nothing stored")
    func noTerminal() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["set", "905123456"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--no-passphrase"))
        #expect(!result.stderr.contains("905123456"))
        #expect(store(home).protection() == nil)
    }

    @Test("--no-passphrase says plainly the card is not encrypted; passphrase set/change/remove keep the ID")
    func passphraseLifecycle() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.write("first\n", to: home.path + "/one")
        try Self.write("second\n", to: home.path + "/two")
        let set = try await gymcard.run(["set", "--no-passphrase"], input: Data("C1/2D\n".utf8))
        #expect(set.status == 0)
        #expect(set.stderr.contains("NOT encrypted"))
        #expect(store(home).protection() == .unencrypted)
        #expect(
            try await gymcard.run(["passphrase", "set", "--new-passphrase-file", home.path + "/one"]).status
                == 0)
        #expect(store(home).protection() == .passphrase)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/gymcard/card.json"))
        let change = try await gymcard.run([
            "passphrase", "change", "--passphrase-file", home.path + "/one", "--new-passphrase-file",
            home.path + "/two",
        ])
        #expect(change.status == 0, "\(change.stderr)")
        let remove = try await gymcard.run(["passphrase", "remove", "--passphrase-file", home.path + "/two"])
        #expect(remove.status == 0)
        #expect(remove.stderr.contains("NOT encrypted"))
        #expect(try store(home).load { [] }.record.id == "C1/2D")
        let again = try await gymcard.run(["passphrase", "remove"])
        #expect(again.status == 64)
    }

    /// Each file of the store, with what opens it according to Debian's age (`age -d`): the passphrases
    /// among `candidates`, or "clear" for a file in the clear. The lock file is left out. Not rage: rage
    /// accepts an scrypt work factor only up to four above what takes a second on the machine at that
    /// moment, so on a loaded machine it refused gymcard's 2^18 with the right passphrase; age's limit is a
    /// fixed 2^22.
    func whatOpens(_ home: TemporaryDirectory, candidates: [String]) async throws -> [String: [String]] {
        let folder = home.path + "/data/gymcard"
        var opens: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != ".lock" {
            let path = folder + "/" + name
            guard
                FileManager.default.contents(atPath: path)?.starts(with: Data("age-encryption.org/".utf8))
                    == true
            else {
                opens[name] = ["clear"]
                continue
            }
            opens[name] = []
            for candidate in candidates where try await Interop.ageDecrypt(path, passphrase: candidate).0 == 0
            {
                opens[name, default: []].append(candidate)
            }
        }
        return opens
    }

    @Test("after set, set, passphrase change, remove, set and forget: no file opens with an old passphrase")
    func nothingOpensWithAnOldPassphrase() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        for (name, value) in [("a", "old words"), ("b", "new words"), ("c", "third words")] {
            try Self.write(value + "\n", to: home.path + "/" + name)
        }
        let a = ["--passphrase-file", home.path + "/a"]
        try seed(home, "111111111", passphrase: "old words")
        try seed(home, "222222222", passphrase: "old words")
        // The backup is the previous card, under the same passphrase.
        #expect(
            try await whatOpens(home, candidates: ["old words"]) == [
                "card.age": ["old words"], "card.age.bak": ["old words"],
            ])

        let change = try await gymcard.run(
            ["passphrase", "change"] + a + ["--new-passphrase-file", home.path + "/b"])
        #expect(change.status == 0, "\(change.stderr)")
        let afterChange = try await whatOpens(home, candidates: ["old words", "new words"])
        #expect(afterChange == ["card.age": ["new words"], "card.age.bak": ["new words"]], "\(afterChange)")
        // The previous card (111111111) is gone with the old passphrase, and the change says so.
        #expect(
            change.stderr.contains("the previous card (written ")
                && change.stderr.contains(
                    "was removed, so that no file opens as before this change"),
            "\(change.stderr)")
        #expect(!change.stderr.contains("111111111") && !change.stderr.contains("1111-11111"))
        let record = try store(home).load { Array("new words".utf8) }.record
        #expect(record.id == "A222222222B")

        let remove = try await gymcard.run([
            "passphrase", "remove", "--passphrase-file", home.path + "/b",
        ])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(!remove.stderr.contains("previous card"), "no different previous card: \(remove.stderr)")
        #expect(
            try await whatOpens(home, candidates: []) == ["card.json": ["clear"], "card.json.bak": ["clear"]])

        let add = try await gymcard.run(["passphrase", "set", "--new-passphrase-file", home.path + "/c"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(
            try await whatOpens(home, candidates: ["old words", "new words", "third words"])
                == ["card.age": ["third words"], "card.age.bak": ["third words"]])

        #expect(try await gymcard.run(["forget", "--yes"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/gymcard") == [".lock"])
    }

    @Test("an empty passphrase file or descriptor: one line naming it, exit 64, only options the command has")
    func emptyPassphrase() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.write("\n", to: home.path + "/empty")
        try Self.write("words\n", to: home.path + "/pw")
        let set = try await gymcard.run(["set", "905123456", "--passphrase-file", home.path + "/empty"])
        #expect(set.status == 64)
        #expect(
            set.stderrLines == [
                "gymcard: the passphrase file \(home.path)/empty is empty (gymcard reads its first line); "
                    + "give one, or use --no-passphrase"
            ])
        try seed(home, "905123456", passphrase: "words")
        let show = try await gymcard.run([
            "show", "--png", "-", "--passphrase-file", home.path + "/empty",
        ])
        #expect(show.status == 64)
        #expect(
            show.stderrLines == [
                "gymcard: the passphrase file \(home.path)/empty is empty (gymcard reads its first line)"
            ])
        let descriptor = try await gymcard.run(
            ["show", "--png", "-", "--passphrase-fd", "0"], input: Data("\n".utf8))
        #expect(descriptor.status == 64)
        #expect(descriptor.stderr.contains("file descriptor 0 gave an empty passphrase"))
        let change = try await gymcard.run([
            "passphrase", "change", "--passphrase-file", home.path + "/pw", "--new-passphrase-file",
            home.path + "/empty",
        ])
        #expect(change.status == 64)
        #expect(!change.stderr.contains("--no-passphrase"))
        #expect(try store(home).load { Array("words".utf8) }.record.id == "A905123456B")
    }

    @Test("a card age wrote armored (age -a) is read; one converted to CR LF says so")
    func armoredAndCRLF() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is needed: scripts/test installs it")
            return
        }
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["set", "--no-passphrase", "905123458"]).status == 0)
        let directory = home.path + "/data/gymcard"
        let armored = directory + "/card.age"
        let encrypted = try await Interop.ageEncrypt(
            directory + "/card.json", to: armored, passphrase: "armor words", armored: true)
        #expect(encrypted == 0)
        try FileManager.default.removeItem(atPath: directory + "/card.json")
        #expect(
            try String(contentsOfFile: armored, encoding: .utf8).hasPrefix(
                "-----BEGIN AGE ENCRYPTED FILE-----"))
        try Self.write("armor words\n", to: home.path + "/pw")
        let show = try await gymcard.run([
            "show", "--passphrase-file", home.path + "/pw", "--png", home.path + "/c.png",
        ])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(try decodeFile(home.path + "/c.png") == ["A905123458B"])

        // The same card written by gymcard, then converted to Windows line ends by a text tool.
        try FileManager.default.removeItem(atPath: armored)
        try seed(home, "905123458", passphrase: "armor words")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: armored)))
        let header = bytes.firstRange(of: Array("\n--- ".utf8))!.lowerBound
        var converted: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if byte == 10, index <= header + 50 { converted.append(13) }
            converted.append(byte)
        }
        bytes = converted
        try Data(bytes).write(to: URL(fileURLWithPath: armored))
        let crlf = try await gymcard.run(["show", "--passphrase-file", home.path + "/pw", "--png", "-"])
        #expect(crlf.status == 65)
        #expect(crlf.stderrLines.count == 1)
        #expect(crlf.stderr.contains("CR LF"), "\(crlf.stderr)")
        #expect(!crlf.stderr.contains("empty file"))
    }

    @Test("forget asks on a terminal, needs --yes in scripts, and says when there is nothing to forget")
    func forget() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["forget", "--yes"]).status == 66)
        _ = try await gymcard.run(["set", "--no-passphrase"], input: Data("905123456\n".utf8))
        let refused = try await gymcard.run(["forget"])
        #expect(refused.status == 64)
        #expect(store(home).protection() == .unencrypted)
        #expect(try await gymcard.run(["forget", "--yes"]).status == 0)
        #expect(store(home).protection() == nil)
        #expect(try await gymcard.run(["show"]).status == 66)
    }

    @Test("a damaged, unsupported or misplaced card: the documented code, a clear line, the file untouched")
    func damaged() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try FileManager.default.createDirectory(
            atPath: home.path + "/data/gymcard", withIntermediateDirectories: true)
        let path = home.path + "/data/gymcard/card.age"
        let cases: [(String, Int32, String)] = [
            ("age-encryption.org/v1\n-> scrypt AAAAAAAAAAAAAAAAAAAAAA 30\nAAAA\n--- AAAA\n", 65, "2^30"),
            ("age-encryption.org/v7\n-> scrypt\n", 65, "age version v7"),
            ("age-encryption.org/v1\n-> X25519 abc\nAAAA\n--- AAAA\n", 65, "not with a passphrase"),
            ("age-encryption.org/v1\ngarbage", 65, "damaged"),
            ("{\"not\": \"age\"}", 65, "not an age file"),
        ]
        for (content, status, message) in cases {
            try Self.write(content, to: path)
            let result = try await gymcard.run(["show", "--png", "-"])
            #expect(result.status == status, "\(content): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(content): \(result.stderr)")
            #expect(result.stderrLines.count == 1)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
        }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let directory = try await gymcard.run(["show", "--png", "-"])
        #expect(directory.status == 65)
        #expect(directory.stderr.contains("not a regular file"))
    }

    @Test(
        "a damaged or missing card is not replaced by the previous card unasked: 65 or 66, then card --restore"
    )
    func backupAndPermissions() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase", "111111111"])
        _ = try await gymcard.run(["set", "--no-passphrase", "222222222"])
        let path = home.path + "/data/gymcard/card.json"
        try Self.write("{ damaged", to: path)
        let show = try await gymcard.run(["show", "--png", home.path + "/c.png"])
        #expect(show.status == 65)
        #expect(show.stderrLines.count == 1)
        #expect(
            show.stderr.contains("`gymcard card --restore` brings back the previous card"), "\(show.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/c.png"))
        #expect(try await gymcard.run(["card", "--restore"]).status == 0)
        #expect(try await gymcard.run(["show", "--png", home.path + "/c.png"]).status == 0)
        #expect(try decodeFile(home.path + "/c.png") == ["A111111111B"])
        // The card removed by hand, the previous one kept: 66, and --restore moves it back.
        _ = try await gymcard.run(["set", "--no-passphrase", "222222222"])
        try FileManager.default.removeItem(atPath: path)
        let missing = try await gymcard.run(["show", "--png", home.path + "/d.png"])
        #expect(missing.status == 66)
        #expect(
            missing.stderrLines == [
                "gymcard: no stored card, but the previous card is kept; `gymcard card --restore` brings it back"
            ])
        #expect(try await gymcard.run(["card", "--restore"]).status == 0)
        #expect(try await gymcard.run(["show", "--png", home.path + "/d.png"]).status == 0)
        #expect(try decodeFile(home.path + "/d.png") == ["A111111111B"])
        _ = try await gymcard.run(["set", "--no-passphrase", "333333333"])
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let loose = try await gymcard.run(["show", "--png", "-"])
        #expect(loose.status == 0)
        #expect(loose.stderr.contains("can be read by other users (mode 644)"))
    }

    @Test("a damaged card without a passphrase: set refuses (65) and the previous card stays as it was")
    func damagedPlainCardIsNotReplaced() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase", "111111111"])
        _ = try await gymcard.run(["set", "--no-passphrase", "222222222"])
        let path = home.path + "/data/gymcard/card.json"
        let previous = try Data(contentsOf: URL(fileURLWithPath: path + ".bak"))
        try Self.write("{ damaged", to: path)
        for arguments in [["set", "--no-passphrase", "333333333"], ["set", "--no-passphrase", "222222222"]] {
            let result = try await gymcard.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("`gymcard card --restore`"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".bak")) == previous)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{ damaged")
    }

    @Test("scan --save stores the ID read from the photo")
    func scanSave() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let photo = GymcardProcess.packageRoot.appendingPathComponent("samples/card-webcam.jpg").path
        let result = try await gymcard.run(["scan", photo, "--save", "--no-passphrase"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == "A905123456B\n", "only the ID is data")
        #expect(result.stderr.contains("Stored 9051-23456.\n"))
        #expect(try store(home).load { [] }.record.id == "A905123456B")
        let nothing = try await gymcard.run(["scan", "--save", "--no-passphrase", home.path + "/missing.jpg"])
        #expect(nothing.status == 66)
        #expect(try store(home).load { [] }.record.id == "A905123456B")
    }

    @Test("a read-only data directory: set fails with 74 and the stored card is untouched")
    func readOnly() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase"], input: Data("905123456\n".utf8))
        let directory = home.path + "/data/gymcard"
        // Root writes anywhere: run as nobody, owning the card but not the directory.
        let asUser = getuid() == 0 ? "nobody" : nil
        if asUser != nil {
            for path in [home.path, home.path + "/data"] {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
            for path in [directory + "/card.json", directory + "/.lock"] {
                try FileManager.default.setAttributes([.ownerAccountName: "nobody"], ofItemAtPath: path)
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory) }
        let result = try await gymcard.run(["set", "--no-passphrase", "987654321"], asUser: asUser)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
        #expect(!result.stderr.contains("987654321"))
        #expect(try store(home).load { [] }.record.id == "A905123456B")
    }

    @Test("SIGKILL at any point while set replaces the ID: the old or the new ID is always readable")
    func crashSafety() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase"], input: Data("111111111\n".utf8))
        let environment = gymcard.environment
        let cardStore = store(home)
        var generator = SeededGenerator(seed: 9)
        var storedAfterEachKill: [String] = []
        for round in 0..<40 {
            let process = try await ChildProcess.start(
                GymcardProcess.executable.path,
                ["set", "--no-passphrase", String(format: "%09d", 222_222_222 + round)],
                environment: environment)
            try await Task.sleep(for: .microseconds(Int.random(in: 0...40_000, using: &generator)))
            process.send(SIGKILL)
            _ = try await process.wait()
            storedAfterEachKill.append(try cardStore.load { [] }.record.id)
        }
        for (round, stored) in storedAfterEachKill.enumerated() {
            #expect(stored == "A111111111B" || stored.hasPrefix("A2222222"), "round \(round): \(stored)")
        }
        // A killed writer may leave a temporary file; the next write (holding the lock) removes it.
        let final = try await gymcard.run(["set", "--no-passphrase", "333333333"])
        #expect(final.status == 0)
        #expect(try store(home).load { [] }.record.id == "A333333333B")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path + "/data/gymcard")
            .filter { !["card.json", "card.json.bak", ".lock"].contains($0) }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("ten gymcard processes writing at once leave one valid card")
    func concurrentWriters() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase", "100000000"])
        let environment = gymcard.environment
        var processes: [ChildProcess] = []
        for index in 0..<10 {
            processes.append(
                try await ChildProcess.start(
                    GymcardProcess.executable.path, ["set", "--no-passphrase", "30000000\(index)"],
                    environment: environment))
        }
        var statuses: [Int32] = []
        for process in processes { statuses.append(try await process.wait().status) }
        #expect(statuses.allSatisfy { $0 == 0 })
        let stored = try store(home).load { [] }.record.id
        #expect(stored.hasPrefix("A30000000"))
    }

    /// What a run started with ``race(_:_:)`` said and how it ended.
    struct Ended: Sendable {
        var status: Int32
        var stderr: String
    }

    /// Starts each command line (with its standard input) while the test holds the card's lock, waits
    /// until every one of them is queued on the lock (or has ended), then lets them go: they overlap for
    /// certain. On code that read the card before taking the lock, every one has read it by then.
    func race(_ home: TemporaryDirectory, _ runs: [(arguments: [String], input: String)]) async throws
        -> (queued: Bool, ended: [Ended])
    {
        try FileManager.default.createDirectory(
            atPath: home.path + "/data/gymcard", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let lock = try HeldLock(home.path + "/data/gymcard/.lock")
        let environment = GymcardProcess(home: home.path).environment
        var started: [ChildProcess] = []
        for run in runs {
            started.append(
                try await ChildProcess.start(
                    GymcardProcess.executable.path, run.arguments, environment: environment,
                    input: Data(run.input.utf8)))
        }
        let queued = await lock.waitUntilQueued(started)
        lock.release()
        var ended: [Ended] = []
        for process in started {
            let output = try await process.wait()
            ended.append(Ended(status: output.status, stderr: output.stderrText))
        }
        return (queued, ended)
    }

    @Test(
        "passphrase change and set at once take turns: the change is never undone, the new ID never lost",
        // One round at a time: each costs a few scrypt runs at 2^18, and the suite runs beside others.
        .serialized, arguments: 0..<4)
    func changeRacesSet(round: Int) async throws {
        let home = try TemporaryDirectory()
        try Self.write("words A\n", to: home.path + "/a")
        try Self.write("words B\n", to: home.path + "/b")
        try seed(home, "905123456", passphrase: "words A")
        let (queued, ended) = try await race(
            home,
            [
                (
                    [
                        "passphrase", "change", "--passphrase-file", home.path + "/a",
                        "--new-passphrase-file",
                        home.path + "/b",
                    ], ""
                ),
                (["set", "--passphrase-file", home.path + "/a"], "905123457\n"),
            ])
        #expect(queued, "both commands queue on the card's lock")
        let (change, set) = (ended[0], ended[1])
        #expect(change.status == 0, "\(change.stderr)")
        #expect(change.stderr.contains("the passphrase is changed"))
        #expect(
            change.stderr.contains("waiting for another gymcard command that is changing the stored card"))
        // After the change, only B opens the card (and its backup).
        #expect(throws: VaultError.wrongPassphrase) { try store(home).load { Array("words A".utf8) } }
        let stored = try store(home).load { Array("words B".utf8) }.record.id
        if set.status == 0 {
            // set went first, under A; the change then carried its new ID over to B.
            #expect(set.stderr.contains("Stored 9051-23457."))
            #expect(stored == "A905123457B", "set said Stored but its ID was lost")
        } else {
            // set went second and found the card under B: as if run after the change.
            #expect(set.status == 77, "\(set.stderr)")
            #expect(set.stderr.contains("wrong passphrase"))
            #expect(stored == "A905123456B")
        }
    }

    @Test("two first-time sets at once: one stores its card, the other finds it and fails with 77")
    func twoFirstSets() async throws {
        let home = try TemporaryDirectory()
        try Self.write("words A\n", to: home.path + "/a")
        try Self.write("words B\n", to: home.path + "/b")
        let (queued, ended) = try await race(
            home,
            [
                (["set", "--passphrase-file", home.path + "/a"], "905123456\n"),
                (["set", "--passphrase-file", home.path + "/b"], "905123457\n"),
            ])
        #expect(queued, "both commands queue on the card's lock")
        #expect(ended.map(\.status).sorted() == [0, 77], "\(ended.map(\.stderr))")
        let winner = try #require(ended.firstIndex { $0.status == 0 })
        let loser = ended[1 - winner]
        #expect(loser.stderr.contains("wrong passphrase"), "\(loser.stderr)")
        #expect(!loser.stderr.contains("Stored"))
        let (passphrase, id) = winner == 0 ? ("words A", "A905123456B") : ("words B", "A905123457B")
        #expect(try store(home).load { Array(passphrase.utf8) }.record.id == id)
    }
}

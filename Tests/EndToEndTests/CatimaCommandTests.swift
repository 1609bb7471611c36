import Codabar
import Foundation
import Imaging
import Scanner
import Storage
import TestSupport
import Testing

@testable import CardVault

/// `export`, `import` and `share` through the built binary, in temporary XDG folders. IDs and passwords
/// go in through files and standard input, never through arguments.
@Suite("gymcard export, import and share (Catima), end to end")
struct CatimaCommandTests {
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Stores `id` in-process at a tiny work factor (`passphrase` nil: unencrypted), labelled `label`.
    static func seed(_ home: TemporaryDirectory, _ id: String, label: String? = nil, passphrase: String?)
        throws
    {
        let record = CardRecord(symbol: try CodabarSymbol(normalizing: id), label: label)
        try CardStore(directory: home.path + "/data/gymcard").save(
            record, passphrase: passphrase.map { Array($0.utf8) }, workFactor: 10)
    }

    static func stored(_ home: TemporaryDirectory, passphrase: String? = nil) throws -> CardRecord {
        try CardStore(directory: home.path + "/data/gymcard").load { Array((passphrase ?? "").utf8) }.record
    }

    /// Catima's own docs and test exports, beside the project (never copied into it).
    static let catima =
        GymcardProcess.packageRoot.deletingLastPathComponent().path + "/shared/realworld/catima"
    static var catimaFilesPresent: Bool { FileManager.default.fileExists(atPath: catima + "/catima_v2.csv") }

    @Test(
        "export then import through the binary gives the same card: zip and CSV, with and without a password",
        arguments: [("card.csv", false), ("card.zip", false), ("card.zip", true)])
    func roundTrip(name: String, withPassword: Bool) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.seed(home, "905123456", label: "McComas, upstairs", passphrase: withPassword ? "vault" : nil)
        try Self.write("vault\n", to: home.path + "/vault-pass")
        try Self.write("zip ☃ pass\n", to: home.path + "/zip-pass")
        let file = home.path + "/" + name
        let passwordOption = withPassword ? ["--password-file", home.path + "/zip-pass"] : []
        let exported = try await gymcard.run(
            ["export", file, "--passphrase-file", home.path + "/vault-pass"] + passwordOption)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stderr
                == "Exported McComas, upstairs (Codabar) to \(file)\(withPassword ? ", encrypted with the password." : ".")\n"
        )
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        if withPassword { #expect(!String(decoding: bytes, as: UTF8.self).contains("905123456")) }

        try FileManager.default.removeItem(atPath: home.path + "/data")
        let imported = try await gymcard.run(["import", file, "--no-passphrase"] + passwordOption)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderrLines.first == "Stored 9051-23456 (McComas, upstairs, Codabar).")
        let record = try Self.stored(home)
        #expect(
            record.id == "A905123456B" && record.symbology == "codabar" && record.label == "McComas, upstairs"
        )
    }

    @Test(
        "a Code 128 card set by hand goes to Catima as CODE_128 and comes back the same, share link included")
    func code128RoundTrip() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let set = try await gymcard.run(
            ["set", "--symbology", "code128", "--no-passphrase", "--label", "Gold's Gym"],
            input: Data("GG-0042-x\n".utf8))
        #expect(set.status == 0, "\(set.stderr)")
        let csv = try await gymcard.run(["export", "-"])
        #expect(
            csv.stdoutText.contains(
                "\r\n1,Gold's Gym,,,,0,,GG-0042-x,,CODE_128,,-13154481,0,0,0\r\n"))
        let url = try await gymcard.run(["share", "--url"])
        #expect(
            Self.catimaFields(url.stdoutText.trimmingCharacters(in: .newlines))["barcodetype"] == "CODE_128")
        #expect(try await gymcard.run(["export", home.path + "/c.zip"]).status == 0)
        try FileManager.default.removeItem(atPath: home.path + "/data")
        let imported = try await gymcard.run(["import", home.path + "/c.zip", "--no-passphrase"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderrLines.first == "Stored GG-0042-x (Gold's Gym, Code 128).")
        let record = try Self.stored(home)
        #expect(record.symbology == "code128" && record.id == "GG-0042-x" && record.label == "Gold's Gym")
    }

    @Test(
        "what export writes is EXPORT_FORMAT.md's version-2 file, to the byte; the zip holds catima.csv alone"
    )
    func exportFormat() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.seed(home, "905123456", passphrase: nil)
        let csv = try await gymcard.run(["export", "-"])
        #expect(csv.status == 0)
        // The parts EXPORT_FORMAT.md names: version 2, a blank line, the group table (`_id`, no groups), a
        // blank line, the 15-column header as its example has it, the card, a blank line, the links' header.
        // CRLF after every record (RFC 4180); no dates, balance 0, `lastused` 0.
        var header = "_id,store,note,validfrom,expiry,balance,balancetype,cardid,barcodeid,barcodetype,"
        header += "barcodeencoding,headercolor,starstatus,lastused,archive"
        if Self.catimaFilesPresent {
            let document = try String(contentsOfFile: Self.catima + "/EXPORT_FORMAT.md", encoding: .utf8)
            #expect(document.contains("\n" + header + "\n"), "the header is the one Catima documents")
        }
        let expected =
            "2\r\n\r\n_id\r\n\r\n" + header + "\r\n"
            + "1,Hokie Passport,,,,0,,A905123456B,,CODABAR,,-7987391,0,0,0\r\n\r\ncardId,groupId\r\n"
        #expect(csv.stdoutText == expected)

        let zipPath = home.path + "/card.zip"
        #expect(try await gymcard.run(["export", zipPath]).status == 0)
        try Self.write("secret\n", to: home.path + "/pw")
        #expect(
            try await gymcard.run(["export", home.path + "/locked.zip", "--password-file", home.path + "/pw"])
                .status == 0)
        // Python's zipfile (its own reader): the entries, the stored CSV, and WinZip AES (method 99) when encrypted.
        let script = """
            import sys, zipfile
            for path in sys.argv[1:]:
                with zipfile.ZipFile(path) as z:
                    for info in z.infolist():
                        print(path.rsplit("/", 1)[1], info.filename, info.compress_type, info.flag_bits & 1)
                        if not info.flag_bits & 1:
                            sys.stdout.write(z.read(info).decode("utf-8").replace("\\r\\n", "|"))
                            print()
            """
        let (status, output, errors) = try await Interop.runPython(
            script, [zipPath, home.path + "/locked.zip"])
        #expect(status == 0, "\(errors)")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "card.zip catima.csv 8 0", expected.replacingOccurrences(of: "\r\n", with: "|"),
                "locked.zip catima.csv 99 1",
            ])
    }

    @Test("an existing file is replaced only with --force; nothing is asked before that is checked")
    func existingFile() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.seed(home, "905123456", passphrase: "vault")
        let path = home.path + "/mine.csv"
        try Self.write("my own file\n", to: path)
        let refused = try await gymcard.run(["export", path])
        #expect(refused.status == 64)
        #expect(
            refused.stderrLines == [
                "gymcard: \(path) already exists; give another name, or --force to replace it"
            ])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "my own file\n")
        try Self.write("vault\n", to: home.path + "/vault-pass")
        let forced = try await gymcard.run([
            "export", path, "--force", "--passphrase-file", home.path + "/vault-pass",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("2\r\n"))
        // A FIFO is written in place, never renamed over.
        let fifo = home.path + "/pipe.csv"
        #expect(mkfifo(fifo, 0o600) == 0)
        async let reader = Interop.runPython("import sys; sys.stdout.write(open(sys.argv[1]).read())", [fifo])
        let piped = try await gymcard.run(["export", fifo, "--passphrase-file", home.path + "/vault-pass"])
        #expect(piped.status == 0, "\(piped.stderr)")
        let (_, fromPipe, _) = try await reader
        #expect(String(decoding: fromPipe, as: UTF8.self).hasPrefix("2\n"))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test(
        "Catima's own exports: the card chosen by store, its ID and type; a type gymcard cannot draw named and refused; several listed",
        .enabled(if: catimaFilesPresent))
    func catimasOwnExports() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.seed(home, "111111111", label: "Mine", passphrase: nil)
        let before = try Data(contentsOf: URL(fileURLWithPath: home.path + "/data/gymcard/card.json"))
        let v2 = Self.catima + "/catima_v2.csv"
        let listed = try await gymcard.run(["import", v2])
        #expect(listed.status == 64)
        // Only the four cards with a barcode gymcard draws are offered (Grocery Store and three others have
        // no barcode type).
        #expect(listed.stderrLines.first == "4 cards with a barcode gymcard can draw:")
        #expect(listed.stderrLines.contains("  3. Restaurant — Code 128, line 17"))
        #expect(listed.stderrLines.contains("(4 other cards have no barcode gymcard can draw)"))
        #expect(
            listed.stderrLines.last
                == "gymcard: there are 4 cards (listed above); choose one with --store <name>")
        #expect(!listed.stderr.contains("98765432") && !listed.stderr.contains("dhd"))
        let grocery = try await gymcard.run(["import", v2, "--store", "Grocery Store"])
        #expect(grocery.status == 65, "the multi-line note is read; the card has no barcode type")
        #expect(grocery.stderrLines.count == 1 && grocery.stderr.contains("line 14 has no barcode type"))
        // A type gymcard cannot draw, in Catima's own file: named and refused, nothing changed.
        let maxicode = home.path + "/maxicode.csv"
        try Self.write(
            try String(contentsOfFile: v2, encoding: .utf8).replacingOccurrences(
                of: "12.50,EUR,a,-5317,AZTEC", with: "12.50,EUR,a,-5317,MAXICODE"), to: maxicode)
        let refused = try await gymcard.run(["import", maxicode, "--store", "Shoe Store"])
        #expect(refused.status == 65)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderr.contains("line 18 has barcode type MAXICODE, which gymcard cannot draw"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.path + "/data/gymcard/card.json")) == before)

        // The card chosen by store: its barcode's own value (barcodeid) in its type, the store as label.
        let restaurant = try await gymcard.run(["import", v2, "--store", "restaurant"])
        #expect(restaurant.status == 0, "\(restaurant.stderr)")
        #expect(restaurant.stderrLines.contains("Stored 23456 (Restaurant, Code 128)."))
        #expect(restaurant.stderrLines.contains { $0.contains("carries its own value") })
        var record = try Self.stored(home)
        #expect(record.symbology == "code128" && record.id == "23456" && record.label == "Restaurant")
        let cheese = try await gymcard.run(["import", v2, "--store", "cheese"])
        #expect(cheese.status == 0, "\(cheese.stderr)")
        record = try Self.stored(home)
        #expect(record.symbology == "aztec" && record.id == "Käseschnitte" && record.label == "cheese")
        let v1 = try await gymcard.run(["import", Self.catima + "/catima_v1_starred_field.csv"])
        #expect(v1.status == 0, "\(v1.stderr)")
        record = try Self.stored(home)
        #expect(record.symbology == "aztec" && record.id == "12345" && record.label == "store")
    }

    @Test("share links from standard input, all three hosts, old and new form; a damaged one is one line")
    func shareLinks() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let links = [
            "https://catima.app/share#store%3DGym%26note%3D%26cardid%3D905123456%26barcodetype%3DCODABAR",
            "https://thelastproject.github.io/Catima/share?store=Gym&note=&cardid=C1234D&barcodetype=CODABAR",
            "https://brarcher.github.io/loyalty-card-locker/share?store=Gym&note=&cardid=77&barcodetype=CODABAR",
        ]
        for (link, id) in zip(links, ["A905123456B", "C1234D", "A77B"]) {
            let result = try await gymcard.run(
                ["import", "--no-passphrase"], input: Data((link + "\n").utf8))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.stored(home).id == id)
            #expect(!result.stderr.contains("command line"))
        }
        // The link as the argument works, and says where it has been seen and how to keep it out of there.
        let argument = try await gymcard.run(["import", links[0], "--no-passphrase"])
        #expect(argument.status == 0, "\(argument.stderr)")
        #expect(
            argument.stderrLines.first
                == "gymcard: warning: the link was on the command line, where other users' `ps` and the "
                + "shell's history see the card's ID; next time give it on standard input or at the prompt "
                + "(gymcard import, then paste it)")
        let damaged = try await gymcard.run(
            ["import", "-"], input: Data("https://catima.app/share#store%3DGym%26cardid%3D905123456".utf8))
        #expect(damaged.status == 65)
        #expect(
            damaged.stderrLines == [
                "gymcard: the link: the Catima share link has no note field; copy the whole link from Catima again; nothing was changed"
            ])
    }

    @Test(
        "a name that contradicts --format (64), a directory (74), a terminal named as a path (64): nothing written"
    )
    func exportRefusals() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.seed(home, "905123456", passphrase: nil)
        for (name, format, kind) in [("a.zip", "csv", "zip"), ("a.csv", "zip", "csv")] {
            let refused = try await gymcard.run(["export", home.path + "/" + name, "--format", format])
            #expect(refused.status == 64)
            #expect(
                refused.stderrLines == [
                    "gymcard: \(home.path)/\(name) is named as a \(kind) file, not a \(format) one; name it to "
                        + "match --format, or leave --format out"
                ])
            #expect(!FileManager.default.fileExists(atPath: home.path + "/" + name))
        }
        try FileManager.default.createDirectory(
            atPath: home.path + "/out", withIntermediateDirectories: false)
        for arguments in [["out"], ["out", "--format", "zip"], ["out.zip"]] {
            if arguments[0] == "out.zip" {
                try FileManager.default.createDirectory(
                    atPath: home.path + "/out.zip", withIntermediateDirectories: false)
            }
            let refused = try await gymcard.run(
                ["export", home.path + "/" + arguments[0]] + arguments.dropFirst())
            #expect(refused.status == 74, "\(arguments): \(refused.stderr)")
            #expect(refused.stderrLines.count == 1, "\(refused.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/out").isEmpty)
        let empty = try await gymcard.run(["export", ""])
        #expect(
            empty.status == 64
                && empty.stderrLines == ["gymcard: the file name is empty (- is standard output)"])
        // On a terminal, /dev/stdout and /dev/tty name it: a zip is refused there as for -.
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is missing: run scripts/test, or make .venv-test with pexpect")
            return
        }
        let script = """
            import os, pexpect, sys
            env = dict(os.environ, HOME=sys.argv[2], XDG_DATA_HOME=sys.argv[2] + "/data")
            for path in ["/dev/stdout", "/dev/tty", "-"]:
                child = pexpect.spawn(sys.argv[1], ["export", path, "--format", "zip"], env=env, timeout=60)
                child.expect(pexpect.EOF); child.close()
                print(path, child.exitstatus, child.before.decode().strip().splitlines()[-1])
            """
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, home.path])
        #expect(status == 0, "\(error)")
        let refusal =
            "gymcard: refusing to write a zip archive to the terminal; redirect it (> card.zip), give a file name, "
            + "or use --force"
        #expect(
            String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init) == [
                "/dev/stdout 64 " + refusal, "/dev/tty 64 " + refusal, "- 64 " + refusal,
            ])
    }

    @Test(
        "on a terminal: the export password typed twice, the zip's asked with three tries, the card and the link asked"
    )
    func terminal() async throws {
        guard await Interop.pythonHas("pexpect") else {
            Issue.record("pexpect is missing: run scripts/test, or make .venv-test with pexpect")
            return
        }
        let home = try TemporaryDirectory()
        try Self.seed(home, "905123456", passphrase: nil)
        let three =
            "2\r\n\r\n_id\r\n\r\n_id,store,note,cardid,barcodetype\r\n1,Gym,,905123456,CODABAR\r\n"
            + "2,Gym,,C1234D,CODABAR\r\n3,Library,,A77B,CODABAR\r\n\r\ncardId,groupId\r\n"
        try Self.write(three, to: home.path + "/three.csv")
        let script = """
            import os, pexpect, sys
            gymcard, home = sys.argv[1], sys.argv[2]
            env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data")
            def run(arguments, steps):
                child = pexpect.spawn(gymcard, arguments, env=env, timeout=60, cwd=home)
                for prompt, answer in steps:
                    child.expect(prompt); child.sendline(answer)
                child.expect(pexpect.EOF); child.close()
                said = child.before.decode().strip().splitlines()
                print(arguments[0], child.exitstatus, ([l for l in said if l.startswith(("Stored", "Exported"))] + said)[0])
            run(["export", "card.zip", "--password"],
                [("Password for the export", "zip words"), ("Repeat the password", "zip words")])
            run(["import", "card.zip"], [("Password of card.zip", "guess"),
                ("try again \\(2 left\\)[\\s\\S]*Password of card.zip", "zip words")])
            run(["import", "three.csv"], [("Which card", "3")])
            run(["import"], [("Catima share link", "https://catima.app/share#store%3DGym%26note%3D%26cardid%3DC1234D%26barcodetype%3DCODABAR")])
            # Ctrl-D at each question: no answer, nothing changed, 64.
            def ended(arguments, prompt):
                child = pexpect.spawn(gymcard, arguments, env=env, timeout=60, cwd=home)
                child.expect(prompt); child.sendeof(); child.expect(pexpect.EOF); child.close()
                print("ended", arguments[-1], child.exitstatus, child.before.decode().strip().splitlines()[-1])
            ended(["import"], "Catima share link: ")
            ended(["import", "three.csv"], "Which card")
            ended(["import", "card.zip"], "Password of card.zip")
            """
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, home.path])
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(status == 0, "\(error)")
        #expect(
            lines == [
                "export 0 Exported Hokie Passport (Codabar) to card.zip, encrypted with the password.",
                "import 0 Stored 9051-23456 (Codabar).",
                "import 0 Stored A77B (Library, Codabar).",
                "import 0 Stored C1234D (Gym, Codabar).",
            ]
                + ["import", "three.csv", "card.zip"].map {
                    "ended \($0) 64 gymcard: nothing was typed: the prompt was ended with Ctrl-D; nothing was changed"
                }, "\(lines)")
        #expect(try Self.stored(home).id == "C1234D")
    }

    /// The double decoding Catima's format document describes: the fragment once, then each value as a form.
    static func catimaFields(_ link: String) -> [String: String] {
        guard let hash = link.firstIndex(of: "#"),
            let fragment = link[link.index(after: hash)...].removingPercentEncoding
        else { return [:] }
        var fields: [String: String] = [:]
        for pair in fragment.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            fields[parts[0]] =
                (parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "+", with: " ")
                .removingPercentEncoding
        }
        return fields
    }

    @Test(
        "share --png and --url: libzbar reads the link, which Catima's format accepts; the notice comes first"
    )
    func sharePNG() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.seed(home, "905123456", label: "Gold's Gym & Spa", passphrase: nil)
        let png = try await gymcard.run(["share", "--png", home.path + "/share.png"])
        #expect(png.status == 0, "\(png.stderr)")
        #expect(
            png.stderrLines == [
                "gymcard: the code carries the card's ID: whoever scans it, or sees the link, has a copy of the card"
            ])
        let decoded = try decodeFile(home.path + "/share.png")
        let link = try #require(decoded.first)
        #expect(link.hasPrefix("https://catima.app/share#"))
        #expect(
            Self.catimaFields(link)
                == [
                    "store": "Gold's Gym & Spa", "note": "", "balance": "0", "cardid": "A905123456B",
                    "barcodetype": "CODABAR", "barcodeencoding": "", "headercolor": "-7987391",
                ])
        let url = try await gymcard.run(["share", "--url"])
        #expect(url.status == 0 && url.stdoutText == link + "\n")
        #expect(url.stderrLines.count == 1 && url.stderr.contains("carries the card's ID"))
        // Piped: the code printed in plain characters, after the notice and a line that colours are off.
        let piped = try await gymcard.run(["share"])
        #expect(piped.status == 0)
        #expect(piped.stderrLines.count == 2 && piped.stderrLines[1].contains("colours are off"))
        let lines = piped.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let image = rasterize(lines)
        #expect(await OffThePool.compute { ZBarReader().decode(image).map(\.text) } == [link])
    }

    @Test("share and export need the passphrase as show does; a wrong one or a wrong zip password says no ID")
    func passphraseGate() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        // No card: one line that says how to store one, not the notice about a code there is not.
        let none = try await gymcard.run(["share"])
        #expect(none.status == 66 && none.stdout.isEmpty)
        #expect(none.stderrLines.count == 1 && none.stderr.contains("gymcard set"), "\(none.stderr)")
        try Self.seed(home, "905123456", passphrase: "vault")
        let locked = try await gymcard.run(["share", "--url"])
        #expect(locked.status == 64 && locked.stdout.isEmpty)
        #expect(locked.stderrLines.first?.contains("carries the card's ID") == true)
        #expect(locked.stderrLines.last?.contains("--passphrase-file") == true)
        try Self.write("not it\n", to: home.path + "/wrong")
        for arguments in [["share", "--url"], ["export", "-"], ["export", home.path + "/c.zip"]] {
            let wrong = try await gymcard.run(arguments + ["--passphrase-file", home.path + "/wrong"])
            #expect(wrong.status == 77 && wrong.stdout.isEmpty, "\(arguments)")
            #expect(!wrong.stderr.contains("905123456") && !wrong.stderr.contains("not it"))
        }
        #expect(!FileManager.default.fileExists(atPath: home.path + "/c.zip"))
        try Self.write("vault\n", to: home.path + "/right")
        try Self.write("zip words\n", to: home.path + "/zip-pass")
        let zip = try await gymcard.run([
            "export", home.path + "/c.zip", "--passphrase-file", home.path + "/right", "--password-file",
            home.path + "/zip-pass",
        ])
        #expect(zip.status == 0, "\(zip.stderr)")
        let badPassword = try await gymcard.run([
            "import", home.path + "/c.zip", "--passphrase-file", home.path + "/right", "--password-file",
            home.path + "/wrong",
        ])
        #expect(badPassword.status == 77)
        #expect(
            badPassword.stderrLines == [
                "gymcard: the password does not open \(home.path)/c.zip; check it and try again"
            ])
    }

    @Test(
        "share in tmux: the notice, then the full-screen QR in blocks, which libzbar reads off the screen",
        .enabled(if: TmuxSession.isAvailable))
    func shareInTmux() async throws {
        let home = try TemporaryDirectory()
        try Self.seed(home, "905123456", passphrase: nil)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let command =
            "echo ready; " + GymcardProcess(home: home.path).shellCommand("share") + "; echo status=$?"
        try await tmux.start(columns: 160, rows: 60, command: command)
        try await tmux.waitFor("any key closes")
        // The label under the code: waited for too, as a loaded machine may capture the screen mid-draw.
        try await tmux.waitFor("Hokie Passport")
        let screen = try await tmux.screen(escapes: true)
        // The whole screen, painted as a terminal paints it (the QR's rows are upper half blocks).
        let image = rasterize(screen)
        let decoded = await OffThePool.glance { ZBarReader().decode(image).map(\.text) }
        #expect(decoded.count == 1)
        #expect(Self.catimaFields(decoded.first ?? "")["cardid"] == "A905123456B")
        try await tmux.tmux(["send-keys", "-t", tmux.name, "q"])
        try await tmux.waitFor("status=0")
        #expect(try await tmux.scrollback().contains("the code carries the card's ID"))
    }
}

@Suite("gymcard export and import: shell completions")
struct CatimaCompletionTests {
    @Test("bash and fish complete export's and import's file argument with .zip and .csv files")
    func fileCompletions() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let bash = try await gymcard.run(["--generate-completion-script", "bash"]).stdoutText
        for command in ["export", "import"] {
            let function = bash.components(separatedBy: "_gymcard_\(command)() {").dropFirst().first ?? ""
            let body = function.components(separatedBy: "\n}\n").first ?? ""
            #expect(body.contains("-fX '!*.@(zip|csv"), "bash: \(command)")
            #expect(
                body.contains("'--password-file')\n        __gymcard_add_completions -f"), "bash: \(command)")
        }
        let fish = try await gymcard.run(["--generate-completion-script", "fish"]).stdoutText
        #expect(fish.contains("\"gymcard export\" -eq 1' -fa '(set -l exts \\'zip\\' \\'csv\\'"))
        #expect(fish.contains("\"gymcard import\" -eq 1' -fa '(set -l exts \\'zip\\' \\'csv\\'"))
    }
}

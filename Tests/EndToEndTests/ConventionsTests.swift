import Foundation
import Scanner
import TestServer
import TestSupport
import Testing

/// Runs a shell command line (bash) and returns its status and output.
func shell(_ command: String, environment: [String: String] = [:]) async throws -> (
    status: Int32, output: String
) {
    let script = """
        import os, subprocess, sys, json
        env = dict(os.environ); env.update(json.loads(sys.argv[2]))
        result = subprocess.run(["bash", "--norc", "--noprofile", "-c", sys.argv[1]], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        sys.stdout.buffer.write(result.stdout); sys.exit(result.returncode)
        """
    let json = String(decoding: try JSONSerialization.data(withJSONObject: environment), as: UTF8.self)
    let (status, output, _) = try await Interop.runPython(script, [command, json])
    return (status, String(decoding: output, as: UTF8.self))
}

@Suite("Conventions people expect of a command-line tool")
struct ConventionsTests {
    static let gymcard = GymcardProcess.executable.path

    @Test(
        "a usage error is one line: gymcard: what, and where --help is",
        arguments: [
            (["show", "--bogus"], "gymcard: unknown option '--bogus'; see 'gymcard show --help'"),
            (
                ["history", "export", "--bogus"],
                "gymcard: unknown option '--bogus'; see 'gymcard history export --help'"
            ),
            (["bogus"], "gymcard: unknown command 'bogus'; see 'gymcard --help'"),
            (
                ["show", "--renderer", "x"],
                "gymcard: the value 'x' is invalid for '--renderer <renderer>'. Please provide one of 'auto', "
                    + "'kitty', 'sixel', 'iterm' or 'blocks'; see 'gymcard show --help'"
            ),
        ])
    func usageError(_ arguments: [String], _ expected: String) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(arguments)
        #expect(result.status == 64)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "config errors: line and column for invalid JSON, the top level named, unknown keys warned once with the closest key"
    )
    func configProblems() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let directory = home.path + "/config/gymcard"
        let path = directory + "/config.json"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (text, expected) in [
            (
                "[]",
                "gymcard: \(path): the top level must be an object ({ … }), not an array; fix or remove it"
            ),
            (
                "{\n  \"occupancy\": {\n    \"timeZone\": x\n  }\n}\n",
                "gymcard: \(path): not valid JSON at line 3, column 17: expected a value, found 'x'; fix or remove it"
            ),
        ] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await gymcard.run(["occupancy", "--cached"])
            #expect(result.status == 78)
            #expect(result.stderrLines == [expected], "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        // A typo is a warning with the key meant, said once although gymcard hands the command to
        // gymcard-network; a 404 names where the feed's address came from.
        let feed = try await FeedServer(LocalServer.Response(status: 404, "not here"))
        defer { Task { await feed.server.stop() } }
        try #"{"ocupancy": {}, "events": {"url": "\#(feed.server.url("/feed.rss").absoluteString)"}}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let fromConfig = try await gymcard.run(["events", "--timeout", "30"])
        #expect(fromConfig.status == 69)
        #expect(
            fromConfig.stderrLines == [
                "gymcard: warning: \(path): unknown key ocupancy (did you mean occupancy?); it is ignored",
                "gymcard: cannot fetch the events: 127.0.0.1 answered HTTP 404; the address may have changed; it comes from events.url in \(path); check it",
            ], "\(fromConfig.stderr)")
        try FileManager.default.removeItem(atPath: path)
        var fromEnvironment = gymcard
        fromEnvironment.environment["GYMCARD_EVENTS_URL"] = feed.server.url("/feed.rss").absoluteString
        let environmentResult = try await fromEnvironment.run(["events", "--timeout", "30"])
        #expect(
            environmentResult.stderrLines == [
                "gymcard: cannot fetch the events: 127.0.0.1 answered HTTP 404; the address may have changed; it comes from GYMCARD_EVENTS_URL; check or unset it"
            ], "\(environmentResult.stderr)")
        // The occupancy endpoint the same way.
        var occupancy = gymcard
        occupancy.environment["GYMCARD_OCCUPANCY_URL"] = feed.server.url("/occupancy").absoluteString
        occupancy.environment["GYMCARD_HOURS_URL"] = feed.server.url("/hours").absoluteString
        let occupancyResult = try await occupancy.run(["occupancy", "--timeout", "30"])
        #expect(occupancyResult.status == 69)
        #expect(
            occupancyResult.stderr.contains(
                "War Memorial Hall, McComas Hall, Bouldering Wall: 127.0.0.1 answered HTTP 404; the address may have changed; it comes from GYMCARD_OCCUPANCY_URL; check or unset it"
            ), "\(occupancyResult.stderr)")
        // And the opening hours service.
        #expect(
            occupancyResult.stderr.contains(
                "opening hours: 127.0.0.1 answered HTTP 404; the address may have changed; it comes from GYMCARD_HOURS_URL; check or unset it"
            ), "\(occupancyResult.stderr)")
    }

    @Test("gymcard card: nothing stored is 66; a plain card shows label and both forms; JSON says the same")
    func cardPlain() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["card"]).status == 66)
        _ = try await gymcard.run(["set", "905123456", "--label", "Gym", "--no-passphrase"])
        let text = try await gymcard.run(["card"])
        #expect(text.status == 0)
        #expect(text.stdoutText.contains("card.json (not encrypted)"))
        #expect(text.stdoutText.contains("Label:   Gym"))
        #expect(text.stdoutText.contains("ID:      9051-23456 (A905123456B)"))
        let json = try await gymcard.run(["card", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["encrypted"] as? Bool == false)
        #expect(object["id"] as? String == "A905123456B")
        #expect(object["displayId"] as? String == "9051-23456")
        #expect(object["label"] as? String == "Gym")
        #expect(object["written"] is String && object["created"] is String && object["updated"] is String)
    }

    @Test("gymcard card on an encrypted card: without the passphrase no ID, with it the ID")
    func cardEncrypted() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Data("sesame\n".utf8).write(to: URL(fileURLWithPath: home.path + "/pw"))
        _ = try await gymcard.run(
            ["set", "--passphrase-file", home.path + "/pw", "--label", "Door"],
            input: Data("905123456\n".utf8))
        let locked = try await gymcard.run(["card"])
        #expect(locked.status == 0)
        #expect(locked.stdoutText.contains("card.age (encrypted with a passphrase)"))
        #expect(locked.stdoutText.contains("Written:"))
        #expect(!locked.stdoutText.contains("905123456") && !locked.stdoutText.contains("9051-23456"))
        #expect(!locked.stdoutText.contains("Door"), "the label is inside the encrypted file")
        let lockedJSON = try await gymcard.run(["card", "--locked", "--json"])
        let lockedObject = try #require(
            try JSONSerialization.jsonObject(with: lockedJSON.stdout) as? [String: Any])
        #expect(Set(lockedObject.keys) == ["path", "encrypted", "written"])
        let open = try await gymcard.run(["card", "--passphrase-file", home.path + "/pw"])
        #expect(open.stdoutText.contains("ID:      9051-23456 (A905123456B)"))
        #expect(open.stdoutText.contains("Label:   Door"))
    }

    @Test(
        "a source that stalls: the message names the --timeout that was given, not what the last try had left"
    )
    func timeoutAsGiven() async throws {
        let stalling = try await LocalServer.stalling(for: 60)
        defer { Task { await stalling.stop() } }
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(
            home: home.path, extra: ["GYMCARD_EVENTS_URL": stalling.url("/feed.rss").absoluteString]
        ).run(["events", "--timeout", "1"])
        #expect(result.status == 69)
        #expect(
            result.stderrLines == [
                "gymcard: cannot fetch the events: 127.0.0.1 did not answer within 1 s; try again later or raise --timeout"
            ], "\(result.stderr)")
    }

    @Test("waiting for a slow source costs no CPU: a 2 s timeout, twice, uses well under a second of it")
    func waitingIsIdle() async throws {
        let stalling = try await LocalServer.stalling(for: 60)
        defer { Task { await stalling.stop() } }
        let home = try TemporaryDirectory()
        var environment = GymcardProcess(home: home.path).environment
        environment["GYMCARD_EVENTS_URL"] = stalling.url("/feed.rss").absoluteString
        // The CPU time of the whole command (gymcard and the gymcard-network it execs), from the kernel.
        let script = """
            import json, resource, subprocess, sys, time
            started = time.monotonic()
            result = subprocess.run([sys.argv[1], "events", "--timeout", "2"], env=json.loads(sys.argv[2]),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            print(json.dumps({"status": result.returncode, "cpu": usage.ru_utime + usage.ru_stime,
                              "wall": time.monotonic() - started}))
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: environment), as: UTF8.self)
        let (status, output, error) = try await Interop.runPython(script, [Self.gymcard, json])
        #expect(status == 0, "\(error)")
        let result = try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["status"] as? Int == 69)
        let cpu = try #require(result["cpu"] as? Double)
        let wall = try #require(result["wall"] as? Double)
        #expect(wall >= 3.5, "two tries of 2 s, less the deadline: \(wall) s")
        // URLSession spent 2.8 s of CPU in such a 6 s wait (its socket's write source fired without pause).
        #expect(cpu < 0.1 * wall + 0.5, "\(cpu) s of CPU over \(wall) s of waiting")
    }

    @Test(
        "the ID and --passphrase-fd 0 both on standard input: the first line is the ID, the second the passphrase"
    )
    func idAndPassphraseOnStandardInput() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let stored = try await gymcard.run(
            ["set", "--passphrase-fd", "0"], input: Data("9051-23456\ncorrect horse\n".utf8))
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stderrLines == ["Stored 9051-23456."])
        let shown = try await gymcard.run(
            ["card", "--passphrase-fd", "0"], input: Data("correct horse\n".utf8))
        #expect(shown.stdoutText.contains("ID:      9051-23456 (A905123456B)"), "\(shown.stderr)")
        let wrong = try await gymcard.run(["card", "--passphrase-fd", "0"], input: Data("9051-23456\n".utf8))
        #expect(wrong.status == 77)
    }

    @Test("short options for the common flags: -l, -a, -o, -d, -y, -f")
    func shortOptions() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        #expect(try await gymcard.run(["set", "905123456", "-l", "Gym", "--no-passphrase"]).status == 0)
        #expect(try await gymcard.run(["card"]).stdoutText.contains("Label:   Gym"))
        let scanned = try await gymcard.run(["scan", "-a", ScanCommandTests.samples + "/card-webcam.jpg"])
        #expect(scanned.stdoutText == "A905123456B\n")
        let out = home.path + "/out"
        let rendered = try await gymcard.run(
            ["render", "--batch", "-", "-o", out], input: Data("905123456\n".utf8))
        #expect(rendered.status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/A905123456B.png"))
        #expect(try await gymcard.run(["hours", "-d", "0"]).status == 64, "-d is --days, range-checked")
        #expect(try await gymcard.run(["forget", "-y"]).status == 0)
        #expect(try await gymcard.run(["card"]).status == 66)
        #expect(try await gymcard.run(["show", "--id", "905123456", "--png", "-", "-f"]).status == 0)
    }

    @Test("--png - and --qr - refuse a terminal unless --force; two outputs to - are refused")
    func binaryToTerminal() async throws {
        let home = try TemporaryDirectory()
        let environment = GymcardProcess(home: home.path).environment
        for option in ["--png", "--qr"] {
            let refused = try await shell(
                "script -qec '\(Self.gymcard) show --id 905123456 \(option) -' /dev/null; echo status=$?",
                environment: environment)
            #expect(refused.output.contains("refusing to write a PNG"), "\(refused.output)")
            #expect(refused.output.contains("status=64"))
            #expect(!refused.output.contains("PNG\r\n\u{1A}"), "no PNG bytes on the terminal")
            let forced = try await shell(
                "script -qec '\(Self.gymcard) show --id 905123456 \(option) - --force' /dev/null | head -c 8 | od -c | head -1",
                environment: environment)
            #expect(forced.output.contains("P   N   G"), "\(forced.output)")
        }
        let both = try await GymcardProcess(home: home.path).run([
            "show", "--id", "905123456", "--png", "-", "--svg", "-",
        ])
        #expect(both.status == 64)
        #expect(both.stderr.contains("only one of --png, --svg and --qr"))
    }

    @Test("render --batch - reads the IDs from standard input")
    func batchFromStandardInput() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(
            ["render", "--batch", "-", "--out", home.path + "/out"],
            input: Data("905123456\n# note\nA37859B\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: home.path + "/out").sorted() == [
                "A37859B.png", "A905123456B.png",
            ])
        let bad = try await GymcardProcess(home: home.path).run(
            ["render", "--batch", "-", "--out", home.path + "/out2"], input: Data("12x4\n".utf8))
        #expect(bad.stderr.contains("standard input:1: invalid ID"))
    }

    @Test("IDs: lowercase t n e get the hint uppercase gets; 8 digits warn that it is not a VT ID")
    func idHints() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        for (id, letter) in [("t1234", "A"), ("1234n", "B"), ("e12", "D")] {
            let result = try await gymcard.run(["show", "--id", id, "--png", "/dev/null"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("write \(letter) instead"), "\(id): \(result.stderr)")
        }
        let short = try await gymcard.run(["show", "--id", "9051-2345", "--png", "/dev/null"])
        #expect(short.status == 0)
        #expect(short.stderr.contains("not a 9-digit VT ID"))
        let right = try await gymcard.run(["show", "--id", "9051-23456", "--png", "/dev/null"])
        #expect(right.stderr.isEmpty)
    }

    @Test(
        "scripts/install into a prefix: stripped binaries, man -l reads the page, bash loads the completion; uninstall leaves nothing",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/strip")))
    func installAndUninstall() async throws {
        let home = try TemporaryDirectory()
        let prefix = home.path + "/prefix"
        let root = GymcardProcess.packageRoot.path
        let built = GymcardProcess.executable.deletingLastPathComponent().path
        let install = try await shell("\(root)/scripts/install --prefix \(prefix) --bin-dir \(built)")
        #expect(install.status == 0, "\(install.output)")
        #expect(install.output.contains("\(prefix)/bin/gymcard"))
        let version = try await shell("\(prefix)/bin/gymcard --version")
        #expect(version.output.hasPrefix("0."))
        let symbols = try await shell("readelf -S \(prefix)/bin/gymcard | grep -c symtab || true")
        #expect(symbols.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "stripped")
        let manual = try await shell("man -l \(prefix)/share/man/man1/gymcard.1 | grep -c 'gymcard show'")
        #expect(manual.status == 0)
        let completion = try await shell(
            """
            source \(prefix)/share/bash-completion/completions/gymcard
            COMP_WORDS=(gymcard sh); COMP_CWORD=1; COMP_LINE='gymcard sh'; COMP_POINT=10
            _gymcard gymcard sh gymcard; printf '%s\\n' "${COMPREPLY[@]}"
            """, environment: ["PATH": "\(prefix)/bin:/usr/bin:/bin"])
        #expect(completion.output.split(separator: "\n").contains("show"), "\(completion.output)")
        for file in ["share/zsh/site-functions/_gymcard", "share/fish/vendor_completions.d/gymcard.fish"] {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"))
        }
        let uninstall = try await shell("\(root)/scripts/uninstall --prefix \(prefix)")
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(
            !FileManager.default.fileExists(atPath: prefix),
            "nothing left: the prefix install created is gone")
    }

    @Test(
        "another package depends on the Codabar, Symbols and Scanner products by version (no unsafe flags), builds and runs"
    )
    func dependableProducts() async throws {
        let home = try TemporaryDirectory()
        let root = GymcardProcess.packageRoot.path
        let package = """
            // swift-tools-version:6.1
            import PackageDescription
            let package = Package(
                name: "uses-gymcard",
                dependencies: [.package(url: "file://\(home.path)/gymcard.git", from: "0.0.1")],
                targets: [
                    .executableTarget(
                        name: "UsesGymcard",
                        dependencies: [
                            .product(name: "Codabar", package: "gymcard"), .product(name: "Symbols", package: "gymcard"),
                            .product(name: "Scanner", package: "gymcard"),
                        ])
                ])
            """
        let program = """
            import Codabar
            import Scanner
            import Symbols
            let symbol = try CodabarSymbol(normalizing: "905123456")
            let image = CodabarRaster.image(of: symbol, style: try BarcodeStyle(narrowBarWidth: 2))
            print(symbol.text, image.width, ZBarReader.isAvailable)
            """
        try FileManager.default.createDirectory(
            atPath: home.path + "/uses/Sources/UsesGymcard", withIntermediateDirectories: true)
        try package.write(toFile: home.path + "/uses/Package.swift", atomically: true, encoding: .utf8)
        try program.write(
            toFile: home.path + "/uses/Sources/UsesGymcard/main.swift", atomically: true, encoding: .utf8)
        // A version-based dependency is the case SwiftPM holds to its rules (unsafe flags refused).
        // Without scripts/test's GYMCARD_OPTIMIZE_IMAGES, as for anyone who depends on gymcard.
        let built = try await shell(
            """
            set -e
            unset GYMCARD_OPTIMIZE_IMAGES
            git clone -q --bare \(root) \(home.path)/gymcard.git
            git -C \(home.path)/gymcard.git tag 0.0.1 HEAD
            cd \(home.path)/uses && swift build -q 2>&1 && .build/debug/UsesGymcard
            """)
        #expect(built.status == 0, "\(built.output)")
        #expect(built.output.hasSuffix("A905123456B 310 true\n"), "\(built.output)")
    }
}

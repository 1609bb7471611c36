import Foundation
import TestSupport
import Testing

/// The CLI definitions are the source of truth; the man page, README and completions must keep up.
@Suite("Man page, README and completions match the CLI")
struct DocumentationTests {
    /// Every visible subcommand and long option, from argument-parser's own dump of the definitions.
    static func commandSurface() async throws -> (
        subcommands: [String], options: [String], optionsByCommand: [(String, [String])]
    ) {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var subcommands: [String] = []
        var options: Set<String> = []
        var optionsByCommand: [(String, [String])] = []
        func walk(_ command: [String: Any], path: String = "") {
            var own: [String] = []
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["shouldDisplay"] as? Bool ?? true else { continue }
                for name in argument["names"] as? [[String: Any]] ?? []
                where name["kind"] as? String == "long" {
                    if let text = name["name"] as? String {
                        options.insert(text)
                        own.append(text)
                    }
                }
            }
            if !path.isEmpty { optionsByCommand.append((String(path.dropLast()), own)) }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard sub["shouldDisplay"] as? Bool ?? true, let name = sub["commandName"] as? String else {
                    continue
                }
                if name != "help" { subcommands.append(path + name) }
                walk(sub, path: path + name + " ")
            }
        }
        walk(try #require(root["command"] as? [String: Any]))
        return (subcommands, options.sorted(), optionsByCommand)
    }

    @Test("the man page names every subcommand and option, and has the extra sections")
    func manPage() async throws {
        let manual = try String(
            contentsOf: GymcardProcess.packageRoot.appendingPathComponent("man/gymcard.1"), encoding: .utf8)
        let surface = try await Self.commandSurface()
        #expect(surface.subcommands.contains("show") && surface.subcommands.contains("render"))
        for subcommand in surface.subcommands {
            let name = subcommand.split(separator: " ").last.map(String.init) ?? subcommand
            #expect(manual.contains(".It Em \(name)\n"), "man page misses subcommand \(subcommand)")
        }
        for option in surface.options {
            // `Fl -all`, or after its short form: `Fl a , -all`.
            #expect(
                manual.contains("Fl -\(option)") || manual.contains(" , -\(option)"),
                "man page misses --\(option)")
        }
        for section in ["FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            #expect(manual.contains(".Sh \(section)\n"), "man page misses \(section)")
        }
    }

    @Test("the man page gives each option's default, as --help does")
    func manPageDefaults() async throws {
        let manual = try String(
            contentsOf: GymcardProcess.packageRoot.appendingPathComponent("man/gymcard.1"), encoding: .utf8)
        // Each option item's text, by its command and long name: a command's items are in the list that
        // opens after its `.It Em <name>`; a list with no such item before it is inside a discussion.
        var items: [String: String] = [:]
        var lists: [[String]?] = []
        var pending: [String]? = []
        var path: [String] = []
        var current: String?
        for line in manual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".Bl") {
                lists.append(pending)
                if let pending { path = pending }
                pending = nil
                current = nil
            } else if line.hasPrefix(".El") {
                _ = lists.popLast()
                path = lists.compactMap { $0 }.last ?? []
                current = nil
            } else if line.hasPrefix(".It Em ") {
                pending = path + [String(line.dropFirst(".It Em ".count))]
                current = nil
            } else if line.hasPrefix(".It Fl "),
                let long = line.split(separator: " ").first(where: { $0.hasPrefix("-") })
            {
                current = (path + ["-" + long]).joined(separator: " ")
                items[current ?? ""] = ""
            } else if line.hasPrefix(".It") {
                current = nil
            } else if let key = current {
                items[key, default: ""] += line + " "
            }
        }
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var checked = 0
        func walk(_ command: [String: Any], path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["shouldDisplay"] as? Bool ?? true, argument["kind"] as? String == "option",
                    let value = argument["defaultValue"] as? String,
                    let long = (argument["names"] as? [[String: Any]] ?? []).first(where: {
                        $0["kind"] as? String == "long"
                    })?["name"] as? String
                else { continue }
                let key = (path + ["--" + long]).joined(separator: " ")
                let text = items[key] ?? ""
                checked += 1
                #expect(
                    text.contains("(default: \(value))") || text.contains("(default as flag: \(value))"),
                    "man page: \(key) does not say its default \(value): \(text)")
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path: path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), path: [])
        // --budget, --timeout, --scale, --height, --ratio, --days, --weeks and more.
        #expect(checked > 20)
    }

    @Test(
        "the man page passes mandoc's lint without warnings",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc")))
    func manPageLint() async throws {
        let page = GymcardProcess.packageRoot.appendingPathComponent("man/gymcard.1").path
        let lint = try await shell("mandoc -T lint -W warning \(page) 2>&1 | grep -v 'mandoc.db' || true")
        #expect(lint.output.isEmpty, "\(lint.output)")
    }

    @Test(
        "the man page keeps the characters outside ASCII that --help shows, such as the en dash of (1–52)",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc")))
    func manPageCharacters() async throws {
        let page = GymcardProcess.packageRoot.appendingPathComponent("man/gymcard.1").path
        let rendered = try await shell("mandoc -T utf8 -O width=1000 \(page) | col -b")
        let shown = rendered.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let home = try TemporaryDirectory()
        let dump = try await GymcardProcess(home: home.path).run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var abstracts: [String] = []
        func walk(_ command: [String: Any]) {
            let arguments = (command["arguments"] as? [[String: Any]] ?? []).filter {
                $0["shouldDisplay"] as? Bool ?? true
            }
            for text in ([command["abstract"]] + arguments.map { $0["abstract"] }).compactMap({
                $0 as? String
            })
            where text.unicodeScalars.contains(where: { !$0.isASCII }) {
                abstracts.append(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? []
            where sub["commandName"] as? String != "help" {
                walk(sub)
            }
        }
        walk(try #require(root["command"] as? [String: Any]))
        #expect(abstracts.contains("How many past weeks of history to use (1–52)."))
        for abstract in abstracts {
            let kept = shown.contains(abstract)
            #expect(kept, "the man page shows \(abstract) otherwise")
        }
    }

    @Test("the README shows every subcommand, and each command's options where it shows the command")
    func readme() async throws {
        let readme = try String(
            contentsOf: GymcardProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let surface = try await Self.commandSurface()
        for subcommand in surface.subcommands {
            #expect(readme.contains("gymcard \(subcommand)"), "\(subcommand)")
        }
        // A command's section is the `### ` one whose heading names it (`campus add`: `campus`); the
        // options many commands share are named once, in the paragraph under "## Commands".
        let sections = readme.split(separator: "\n### ").map(String.init)
        let common = try #require(
            readme.components(separatedBy: "\n## Commands\n").last?.components(separatedBy: "\n### ").first)
        for (command, options) in surface.optionsByCommand where command != "help" {
            let top = command.split(separator: " ").first.map(String.init) ?? command
            let section = sections.first { $0.prefix { $0 != "\n" }.contains("`\(top)`") } ?? ""
            #expect(!section.isEmpty, "no README section names `\(top)`")
            for option in options where option != "help" && option != "version" {
                #expect(
                    section.contains("--\(option)") || common.contains("--\(option)"),
                    "README's section of \(command) misses --\(option)")
            }
        }
    }

    @Test(
        "completion scripts are generated for bash, zsh and fish and name the subcommands",
        arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        let script = result.stdoutText
        #expect(script.contains("render") && script.contains("show") && script.contains("check-digit"))
    }

    static let shells = ["bash": "/bin/bash", "zsh": "/usr/bin/zsh", "fish": "/usr/bin/fish"]

    @Test(
        "each completion script passes its own shell's syntax check (-n)",
        .enabled(
            if: Prerequisite.runs(
                shells.values.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }),
            "zsh and fish are needed to check their completion scripts"),
        arguments: ["bash", "zsh", "fish"])
    func completionSyntax(shell: String) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        let path = home.path + "/completion." + shell
        try result.stdout.write(to: URL(fileURLWithPath: path))
        let check = try await ChildProcess.run(try #require(Self.shells[shell]), ["-n", path])
        #expect(check.status == 0, "\(shell) -n rejects the completion script: \(check.stderrText)")
    }

    @Test("--version prints the version")
    func version() async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdoutText.hasPrefix("0."))
    }
}

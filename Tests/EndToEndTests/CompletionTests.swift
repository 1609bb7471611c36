import Foundation
import TestSupport
import Testing

/// The completion scripts `--generate-completion-script` writes, run by each shell as a person's
/// Tab runs them: bash through `complete -F`'s function, zsh through a real line editor in a pseudo
/// terminal (zpty) with compinit, fish through `complete -C` (and, for what gymcard completes itself,
/// an interactive fish in tmux).
@Suite("Shell completions complete files and values in bash, zsh and fish")
struct CompletionTests {
    /// A command line up to the cursor, what Tab must offer, and what it must not.
    struct Case: Sendable, CustomStringConvertible {
        var line: String
        var offers: [String]
        var omits: [String] = []
        var description: String { line }
    }

    static let cases: [Case] = [
        Case(line: "gymcard show --renderer ", offers: ["auto", "kitty", "sixel", "iterm", "blocks"]),
        Case(line: "gymcard render --format ", offers: ["png", "svg"]),
        Case(line: "gymcard occupancy --format ", offers: ["text", "json", "waybar", "tmux"]),
        Case(line: "gymcard campus add --vendor ", offers: ["fusion", "goboard", "waitz"]),
        Case(line: "gymcard show --png ", offers: ["card.png", "photos"], omits: ["notes.txt", "qr.svg"]),
        Case(line: "gymcard show --svg ", offers: ["qr.svg", "photos"], omits: ["card.png"]),
        Case(line: "gymcard show --qr ", offers: ["card.png"], omits: ["notes.txt"]),
        Case(line: "gymcard trends --png ", offers: ["card.png"], omits: ["notes.txt"]),
        Case(
            line: "gymcard scan ", offers: ["IMG_0001.HEIC", "IMG_0002.JPG", "card.png", "photos"],
            omits: ["notes.txt", "export.csv"]),
        Case(line: "gymcard render --batch ", offers: ["ids.txt", "notes.txt"]),
        Case(line: "gymcard render --out ", offers: ["photos"], omits: ["ids.txt", "card.png"]),
        Case(line: "gymcard show --passphrase-file ", offers: ["notes.txt", "ids.txt"]),
        Case(line: "gymcard passphrase set --new-passphrase-file ", offers: ["notes.txt"]),
        Case(line: "gymcard history import ", offers: ["export.csv", "photos"], omits: ["notes.txt"]),
        Case(line: "gymcard events --ics ", offers: ["feed.ics"], omits: ["notes.txt"]),
    ]

    /// A folder of files to complete, and the three completion scripts written from the built binary.
    final class Fixture {
        let home: TemporaryDirectory
        var folder: String { home.path + "/files" }

        init() async throws {
            home = try TemporaryDirectory()
            let manager = FileManager.default
            try manager.createDirectory(
                atPath: home.path + "/files/photos", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: home.path + "/zsh", withIntermediateDirectories: true)
            for name in [
                "card.png", "IMG_0001.HEIC", "IMG_0002.JPG", "notes.txt", "ids.txt", "export.csv", "qr.svg",
                "feed.ics",
            ] {
                try Data().write(to: URL(fileURLWithPath: home.path + "/files/" + name))
            }
            try CampusProfileConfig.write(
                home: home.path, name: "ucsc", timeZone: "America/Los_Angeles",
                facilities: [
                    (
                        key: "east-gym", name: "East Gym", shortName: "East",
                        id: "11111111-2222-3333-4444-555555555555", capacity: 100
                    )
                ])
            let process = GymcardProcess(home: home.path)
            for (shell, path) in [
                ("bash", "/gymcard.bash"), ("zsh", "/zsh/_gymcard"), ("fish", "/gymcard.fish"),
            ] {
                let script = try await process.run(["--generate-completion-script", shell])
                #expect(script.status == 0)
                try script.stdout.write(to: URL(fileURLWithPath: home.path + path))
            }
            try Data(Self.bashHarness.utf8).write(to: URL(fileURLWithPath: home.path + "/complete.bash"))
            try Data(Self.zshHarness.utf8).write(to: URL(fileURLWithPath: home.path + "/complete.zsh"))
        }

        /// What Tab offers in `shell` at the end of `line`, one candidate a line.
        func candidates(_ shell: String, _ line: String) async throws -> [String] {
            // The binary's folder on PATH, as when it is installed; nothing else of the test's environment.
            let environment = [
                "HOME": home.path, "LANG": "C.UTF-8", "TERM": "dumb",
                "XDG_CONFIG_HOME": home.path + "/config",
                "PATH": GymcardProcess.executable.deletingLastPathComponent().path + ":/usr/bin:/bin",
            ]
            let output: ChildProcess.Output
            switch shell {
            case "bash":
                output = try await ChildProcess.run(
                    "/bin/bash",
                    [
                        "--norc", "--noprofile", home.path + "/complete.bash", home.path + "/gymcard.bash",
                        folder, line,
                    ],
                    environment: environment, timeoutSeconds: 300)
            case "zsh":
                output = try await ChildProcess.run(
                    "/usr/bin/zsh",
                    [
                        "-f", home.path + "/complete.zsh", home.path + "/zsh", folder, line,
                        home.path + "/zsh.out",
                    ],
                    environment: environment, timeoutSeconds: 300)
            default:
                output = try await ChildProcess.run(
                    "/usr/bin/fish",
                    [
                        "--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                        home.path + "/gymcard.fish", line,
                    ],
                    environment: environment, currentDirectory: folder, timeoutSeconds: 300)
            }
            #expect(output.status == 0, "\(shell): \(output.stderrText)")
            // fish: "candidate<TAB>description"; fish and zsh may end a folder with "/".
            return output.stdoutText.split(separator: "\n").map { candidate in
                var name = String(candidate.split(separator: "\t", omittingEmptySubsequences: false)[0])
                if name.hasSuffix("/") { name.removeLast() }
                return name
            }
        }

        /// Runs the function `complete -p gymcard` names, as bash's Tab does, with COMP_WORDS and COMP_LINE
        /// for `line` and the cursor at its end; prints COMPREPLY.
        static let bashHarness = #"""
            source "$1" || exit 3
            cd "$2" || exit 3
            line="$3"
            spec="$(complete -p gymcard)" || exit 4
            function="$(sed -E 's/.* -F ([^ ]+) .*/\1/' <<< "$spec")"
            COMP_LINE="$line"; COMP_POINT=${#line}
            read -ra COMP_WORDS <<< "$line"
            [[ "$line" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            "$function" gymcard "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """#

        /// An interactive zsh in a pseudo terminal: compinit finds `_gymcard` on fpath (as installed),
        /// the line is typed and Tab pressed; every candidate the completion system adds is written to the
        /// output file, then a marker when the completion is over.
        static let zshHarness = #"""
            zmodload zsh/zpty || exit 3
            local function_dir=$1 dir=$2 line=$3 out=$4
            : > $out
            zpty gymcardcompletion zsh -f -i
            zpty -w gymcardcompletion "cd ${(q)dir}; PROMPT=''; fpath=(${(q)function_dir} \$fpath); autoload -U compinit; compinit -u -D"
            zpty -w gymcardcompletion "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' menu no; bindkey '^I' complete-word"
            zpty -w gymcardcompletion "compadd () { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -A hits \"\$@\"; (( \$#hits )) && print -rl -- \$hits >> ${(q)out}; builtin compadd \"\$@\"; }"
            zpty -w gymcardcompletion "finished () { print -r -- '<<finished>>' >> ${(q)out} }"
            zpty -w gymcardcompletion "zstyle ':completion:*' completer _complete; comppostfuncs=(finished)"
            zpty -wn gymcardcompletion "$line"$'\t'
            integer tries
            for (( tries = 0; tries < 900; tries++ )); do
              grep -q '^<<finished>>$' $out && break
              zpty -r -t gymcardcompletion junk
              sleep 0.1
            done
            zpty -d gymcardcompletion
            grep -q '^<<finished>>$' $out || { print -u2 "zsh did not complete: $line"; exit 5 }
            grep -v '^<<finished>>$' $out
            """#
    }

    /// Campuses and facilities, from the fixture's config file (the campus ucsc, its facility east-gym):
    /// completed by gymcard itself (argument-parser's custom completion), which reads the config file.
    static let namedCases: [Case] = [
        Case(line: "gymcard occupancy --campus ", offers: ["vt", "ucsc"], omits: ["card.png"]),
        Case(line: "gymcard campus use u", offers: ["ucsc"], omits: ["vt"]),
        Case(
            line: "gymcard trends ", offers: ["war-memorial", "mccomas", "bouldering-wall"],
            omits: ["east-gym", "card.png"]),
        Case(line: "gymcard best --campus ucsc ", offers: ["east-gym"], omits: ["mccomas"]),
        Case(line: "gymcard hours mc", offers: ["mccomas"], omits: ["war-memorial"]),
        Case(line: "gymcard wait --campus ucsc --facility ", offers: ["east-gym"], omits: ["mccomas"]),
        Case(line: "gymcard trends McC", offers: ["McComas Hall"], omits: ["mccomas"]),
    ]

    @Test("Tab offers the values and the files each option takes", arguments: ["bash", "zsh", "fish"])
    func completes(shell: String) async throws {
        let fixture = try await Fixture()
        // fish runs gymcard's own completion only in an interactive shell (`complete -C` in a script
        // gives it no cursor position): its named cases run in tmux below.
        for check in Self.cases + (shell == "fish" ? [] : Self.namedCases) {
            // zsh offers a name with a space as it inserts it: "McComas\\ Hall".
            let offered = try await fixture.candidates(shell, check.line).map {
                $0.replacingOccurrences(of: "\\ ", with: " ")
            }
            for wanted in check.offers {
                #expect(
                    offered.contains(wanted), "\(shell): '\(check.line)' offers \(offered), not \(wanted)")
            }
            for unwanted in check.omits {
                #expect(
                    !offered.contains(unwanted), "\(shell): '\(check.line)' offers \(unwanted): \(offered)")
            }
        }
    }

    @Test(
        "fish, typed in a terminal: Tab offers the campus and facility names from the config file",
        .enabled(if: TmuxSession.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"))
    )
    func fishNames() async throws {
        let fixture = try await Fixture()
        let home = fixture.home.path
        try Data("source \(home)/gymcard.fish\nfunction fish_prompt; echo '> '; end\n".utf8).write(
            to: URL(fileURLWithPath: home + "/init.fish"))
        for check in Self.namedCases {
            // A fresh fish for each line: nothing left over from the line before.
            let tmux = TmuxSession()
            defer { tmux.kill() }
            try await tmux.start(
                columns: 120, rows: 30,
                command:
                    "cd \(fixture.folder) && env -i HOME=\(home) XDG_CONFIG_HOME=\(home)/config LANG=C.UTF-8 "
                    + "TERM=xterm PATH=\(GymcardProcess.executable.deletingLastPathComponent().path):/usr/bin:/bin "
                    + "fish --no-config -C \"source \(home)/init.fish\"")
            try await tmux.waitFor(">")
            try await tmux.tmux(["send-keys", "-t", tmux.name, "-l", check.line])
            try await tmux.tmux(["send-keys", "-t", tmux.name, "Tab"])
            // The pager lists the candidates, or the only one is put on the line.
            // (A name put on the line has its space escaped: its first word is waited for.)
            for wanted in check.offers { try await tmux.waitFor(String(wanted.prefix { $0 != " " })) }
            let screen = try await tmux.screen().joined(separator: "\n")
                .replacingOccurrences(of: "\\ ", with: " ")
            for wanted in check.offers {
                #expect(screen.contains(wanted), "fish: '\(check.line)': \(screen)")
            }
            for unwanted in check.omits {
                #expect(!screen.contains(unwanted), "fish: '\(check.line)' offers \(unwanted): \(screen)")
            }
        }
    }
}

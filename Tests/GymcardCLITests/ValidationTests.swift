import ArgumentParser
import Testing

@testable import GymcardCLI

/// Every rule a command's `validate()` checks, parsed in process as argument-parser's own tests do: the
/// arguments a rule refuses give its message (as `gymcard` words the usage line from it) and exit status
/// 64, and a neighbour just inside the rule parses.
@Suite("Validation rules, parsed in process")
struct ValidationTests {
    /// One rule: arguments it refuses, the message they give, and arguments just inside it.
    struct Rule: Sendable, CustomTestStringConvertible {
        var refused: [String]
        var message: String
        var neighbour: [String]

        var testDescription: String { "gymcard " + refused.joined(separator: " ") }
    }

    static let symbologies =
        "codabar, code39, code93, code128, itf, ean8, ean13, upca, upce, qr, pdf417, datamatrix, aztec"

    /// One row per rule of a `validate()` in Sources/GymcardCLI, in file order; rules of an option group
    /// shared by several commands are checked on more than one of them.
    static let rules: [Rule] = [
        // BestCommand
        Rule(
            refused: ["best", "--within", "30m"],
            message: "--within must be a duration from 1h to 7d, such as 12h",
            neighbour: ["best", "--within", "1h", "--for", "1h"]),
        Rule(
            refused: ["best", "--within", "8d"],
            message: "--within must be a duration from 1h to 7d, such as 12h",
            neighbour: ["best", "--within", "7d"]),
        Rule(
            refused: ["best", "--for", "10m"],
            message: "--for must be a duration from 15m to 8h, such as 90m",
            neighbour: ["best", "--for", "15m"]),
        Rule(
            refused: ["best", "--within", "1h", "--for", "2h"],
            message: "--for must not be longer than --within",
            neighbour: ["best", "--within", "2h", "--for", "2h"]),
        // CampusCommand.Add
        Rule(
            refused: ["campus", "add", "https://campusrec.ucsc.edu", "--name", "vt"],
            message: "--name must be 1 to 32 of a-z, 0-9 and -, starting with a letter, and not vt",
            neighbour: ["campus", "add", "https://campusrec.ucsc.edu", "--name", "ucsc"]),
        Rule(
            refused: ["campus", "add", "https://campusrec.ucsc.edu", "--name", "9th-campus"],
            message: "--name must be 1 to 32 of a-z, 0-9 and -, starting with a letter, and not vt",
            neighbour: ["campus", "add", "https://campusrec.ucsc.edu", "--name", "campus-9"]),
        Rule(
            refused: ["campus", "add", "https://campusrec.ucsc.edu", "--display-type", "not-a-uuid"],
            message: "--display-type is a UUID such as 00000000-0000-0000-0000-000000004488",
            neighbour: [
                "campus", "add", "https://campusrec.ucsc.edu", "--display-type",
                "00000000-0000-0000-0000-000000004488",
            ]),
        // CampusOption
        Rule(
            refused: ["occupancy", "--campus", "UC_SC"],
            message: "--campus takes a campus name such as vt or ucsc (see gymcard campus list)",
            neighbour: ["occupancy", "--campus", "ucsc"]),
        Rule(
            refused: ["wait", "--below", "30%", "--campus", "a/b"],
            message: "--campus takes a campus name such as vt or ucsc (see gymcard campus list)",
            neighbour: ["wait", "--below", "30%", "--campus", "vt"]),
        // CardCommand
        Rule(
            refused: ["card", "--label", "Gym", "--restore"], message: "give --label or --restore, not both",
            neighbour: ["card", "--label", "Gym"]),
        Rule(
            refused: ["card", "--restore", "--json"],
            message: "--restore changes the card: give it without --json or --locked",
            neighbour: ["card", "--restore"]),
        Rule(
            refused: ["card", "--label", "Gym", "--locked"],
            message: "--label changes the card: give it without --json or --locked",
            neighbour: ["card", "--json", "--locked"]),
        // CollectCommand
        Rule(
            refused: ["collect", "--install", "--status"],
            message: "give one of --install, --uninstall and --status",
            neighbour: ["collect", "--install"]),
        // EventsCommand
        Rule(
            refused: ["events", "--days", "0"], message: "--days must be between 1 and 366",
            neighbour: ["events", "--days", "1"]),
        Rule(
            refused: ["events", "--days", "367"], message: "--days must be between 1 and 366",
            neighbour: ["events", "--days", "366"]),
        Rule(
            refused: ["events", "--json", "--ics", "-"],
            message: "--json and --ics - both write to standard output; give one",
            neighbour: ["events", "--json", "--ics", "gym.ics"]),
        // HistoryCommand.Export
        Rule(
            refused: ["history", "export", "--csv", "--json"], message: "give --csv or --json, not both",
            neighbour: ["history", "export", "--json"]),
        // HoursCommand
        Rule(
            refused: ["hours", "--days", "15"], message: "--days must be between 1 and 14",
            neighbour: ["hours", "--days", "14"]),
        // NetworkOptions
        Rule(
            refused: ["occupancy", "--timeout", "0.05"],
            message: "--timeout must be between 0.1 and 120 seconds",
            neighbour: ["occupancy", "--timeout", "0.1"]),
        Rule(
            refused: ["events", "--timeout", "121"], message: "--timeout must be between 0.1 and 120 seconds",
            neighbour: ["events", "--timeout", "120"]),
        // OccupancyCommand
        Rule(
            refused: ["occupancy", "--json", "--format", "waybar"],
            message: "--json and --format waybar disagree; give one of them",
            neighbour: ["occupancy", "--json", "--format", "json"]),
        Rule(
            refused: ["occupancy", "--watch", "--cached"],
            message: "--watch fetches; it cannot be combined with --cached",
            neighbour: ["occupancy", "--watch"]),
        Rule(
            refused: ["occupancy", "--demo", "--cached"], message: "--demo cannot be combined with --cached",
            neighbour: ["occupancy", "--demo"]),
        // PassphraseOptions
        Rule(
            refused: ["show", "--passphrase-file", "pw", "--passphrase-fd", "3"],
            message: "give --passphrase-file or --passphrase-fd, not both",
            neighbour: ["show", "--passphrase-fd", "3"]),
        Rule(
            refused: ["export", "cards.zip", "--passphrase-file", "pw", "--passphrase-fd", "3"],
            message: "give --passphrase-file or --passphrase-fd, not both",
            neighbour: ["export", "cards.zip", "--passphrase-file", "pw"]),
        // Scan
        Rule(
            refused: ["scan", "--budget", "61", "card.jpg"],
            message: "--budget must be more than 0 and at most 60 seconds",
            neighbour: ["scan", "--budget", "60", "card.jpg"]),
        Rule(
            refused: ["scan", "--budget", "0", "card.jpg"],
            message: "--budget must be more than 0 and at most 60 seconds",
            neighbour: ["scan", "--budget", "0.5", "card.jpg"]),
        Rule(
            refused: ["scan", "-", "-"], message: "standard input (-) can be read only once",
            neighbour: ["scan", "-", "card.jpg"]),
        // SetCommand
        Rule(
            refused: ["set", "--symbology", "ean14"],
            message: "unknown symbology 'ean14'; use one of \(symbologies)",
            neighbour: ["set", "--symbology", "EAN13"]),
        // Show
        Rule(
            refused: ["show", "--timeout", "86401"],
            message: "--timeout must be 0 to 86400 seconds (not 86401.0)",
            neighbour: ["show", "--timeout", "86400"]),
        Rule(
            refused: ["show", "--timeout", "-1"], message: "--timeout must be 0 to 86400 seconds (not -1.0)",
            neighbour: ["show", "--timeout", "0"]),
        // SymbolOptions
        Rule(
            refused: ["show", "--id", "905123456", "--symbology", "barcode"],
            message: "unknown symbology 'barcode'; use one of \(symbologies)",
            neighbour: ["show", "--id", "905123456", "--symbology", "code128"]),
        Rule(
            refused: ["render", "--batch", "ids.txt", "--out", "cards", "--symbology", "qrcode"],
            message: "unknown symbology 'qrcode'; use one of \(symbologies)",
            neighbour: ["render", "--batch", "ids.txt", "--out", "cards", "--symbology", "qr"]),
        // TrendsCommand
        Rule(
            refused: ["trends", "--demo", "--json"], message: "--demo draws text; leave out --json and --png",
            neighbour: ["trends", "--demo"]),
        Rule(
            refused: ["trends", "--demo", "--png", "week.png"],
            message: "--demo draws text; leave out --json and --png",
            neighbour: ["trends", "--png", "week.png"]),
        // WaitCommand
        Rule(
            refused: ["wait", "--below", "0%"],
            message: "--below: give a percentage above 0 and at most 100, such as 30%",
            neighbour: ["wait", "--below", "100%"]),
        Rule(
            refused: ["wait", "--below", "0"],
            message: "--below: give a number of people above 0, such as 120",
            neighbour: ["wait", "--below", "1"]),
        Rule(
            refused: ["wait", "--below", "30%", "--interval", "30s"],
            message: "--interval must be a duration from 1m to 1h, such as 2m (polling politely)",
            neighbour: ["wait", "--below", "30%", "--interval", "1m"]),
        Rule(
            refused: ["wait", "--below", "30%", "--for", "8h1m"],
            message: "--for must be a duration up to 8h, such as 10m",
            neighbour: ["wait", "--below", "30%", "--for", "8h"]),
        Rule(
            refused: ["wait", "--below", "30%", "--demo", "--notify"],
            message: "--demo sends no notification; leave out --notify",
            neighbour: ["wait", "--below", "30%", "--demo"]),
        Rule(
            refused: ["wait", "--below", "30%", "--timeout", "0"],
            message: "--timeout must be longer than 0, such as 2h",
            neighbour: ["wait", "--below", "30%", "--timeout", "1s"]),
        // WeeksOption
        Rule(
            refused: ["trends", "--weeks", "53"], message: "--weeks must be 1 to 52",
            neighbour: ["trends", "--weeks", "52"]),
        Rule(
            refused: ["best", "--weeks", "0"], message: "--weeks must be 1 to 52",
            neighbour: ["best", "--weeks", "1"]),
    ]

    @Test("the arguments a rule refuses give its message, as a usage error (64)", arguments: rules)
    func refused(_ rule: Rule) throws {
        let error = try #require(throws: (any Error).self) { try Gymcard.parseAsRoot(rule.refused) }
        #expect(Gymcard.message(for: error) == rule.message)
        #expect(Gymcard.exitCode(for: error) == .validationFailure)
    }

    @Test("arguments just inside the rule parse", arguments: rules)
    func neighbourParses(_ rule: Rule) {
        #expect(throws: Never.self) { _ = try Gymcard.parseAsRoot(rule.neighbour) }
    }
}

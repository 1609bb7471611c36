import ArgumentParser
import Backlight
import CampusFeature
import CardFeature
import Console
import Diagnosis
import FoundationEssentials
import Glibc
import GymcardCore

/// The `gymcard` command: parses, calls the libraries, prints, and maps failures to exit codes.
struct Gymcard: AsyncParsableCommand {
    static let version = Online.version

    /// The root as argument-parser sees it: `quick` while the arguments are parsed (``QuickRootParse``).
    static var configuration: CommandConfiguration { QuickRootParse.isActive ? quick : plain }
    static let quick = ArgumentParserInternals.quickRoot(plain)

    static let plain = CommandConfiguration(
        commandName: "gymcard",
        abstract:
            "Your gym card, occupancy and events in the terminal: scan, show and share member cards in any of 13 symbologies.",
        discussion: """
            gymcard reads a member card's barcode off a photo and draws it back exactly, in its own \
            symbology (Codabar, Code 39, Code 93, Code 128, Interleaved 2 of 5, EAN-8, EAN-13, UPC-A, \
            UPC-E, QR, PDF417, Data Matrix, Aztec): full screen at the turnstile, as PNG or SVG, or on a \
            phone through Catima. A Codabar ID is normalized first: nine digits (also written \
            1234-56789) are a Virginia Tech ID and become A123456789B; otherwise A is prepended and B \
            appended when the ID does not already start and end with A-D.
            """,
        version: version,
        subcommands: [
            Scan.self, SetCommand.self, Show.self, CardCommand.self, Forget.self, PassphraseCommand.self,
            Render.self, ExportCommand.self, ImportCommand.self, ShareCommand.self,
            OccupancyCommand.self, EventsCommand.self, FacilitiesCommand.self, HistoryCommand.self,
            CollectCommand.self, TrendsCommand.self, BestCommand.self, HoursCommand.self, WaitCommand.self,
            CampusCommand.self, DoctorCommand.self,
        ]
    )
}

/// The entry point both binaries call.
public enum GymcardEntry {
    /// Entry point. Synchronous on purpose: an async `main` moves every command onto a Dispatch worker thread at
    /// start-up. The commands that are async run in a task while the main thread waits.
    public static func run(online: Online?) -> Never {
        // The full-screen card's backlight guardian is this binary started again (Backlight's BacklightGuard):
        // it handles its own signals and needs no command line.
        if BacklightGuardian.isRequested(CommandLine.arguments) {
            BacklightGuardian.run(CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
        }
        // On the main thread, which lives as long as the process: a signal mask is per thread, and a worker
        // may be gone (Dispatch retires idle workers) when Ctrl-C comes.
        Interrupt.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = UsageLine.unknownHelpTopic(arguments, root: { CommandNames(Gymcard.self) }) {
            Terminal.standardError.say(unknown)
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        do {
            var command = try QuickRootParse.parse(arguments) { try Gymcard.parseAsRoot($0) }
            switch command {
            case let asynchronous as any AsyncContextCommand:
                if online == nil, asynchronous.fetchesAtOnce { throw Online.handOff() }
                let context = try makeContext(online: online)
                try WaitingRunner.run(asynchronous) { try await $0.run(in: context) }
            case let synchronous as any ContextCommand:
                try synchronous.run(in: try makeContext(online: online))
            case let asynchronous as any AsyncParsableCommand:
                try WaitingRunner.run(asynchronous) { command in
                    var command = command
                    try await command.run()
                }
            default:
                try command.run()
            }
            // Leave now: an async main's return can wait seconds for idle Dispatch workers (many gymcards at once).
            finish(0)
        } catch let exit as ExitCode {
            // A status chosen by the command after it said everything (Ctrl-C on the full-screen card: 130).
            finish(exit.rawValue)
        } catch {
            guard let failure = ExitTable.failure(for: error) else {
                unknownError(error, arguments: arguments)
            }
            if !failure.message.isEmpty { Terminal.standardError.say(failure.message) }
            finish(failure.status.rawValue)
        }
    }

    /// Exits with `status` once what was written to standard output has arrived; when it could not be (a full
    /// disk, a closed descriptor), says so and exits 74 instead of 0.
    private static func finish(_ status: Int32) -> Never {
        if let failure = Terminal.standardOutput.failureAtExit() {
            Terminal.standardError.say("cannot write \(failure.description)")
            Glibc.exit(status == 0 ? ExitStatus.ioError.rawValue : status)
        }
        Glibc.exit(status)
    }

    /// The process's one context: its environment, folders, clock and config file; warnings to stderr.
    private static func makeContext(online: Online?) throws -> Context {
        try Context(
            environment: ProcessInfo.processInfo.environment, online: online,
            configShape: ConfigFile.gymcardShape
        ) {
            Terminal.standardError.say($0)
        }
    }

    /// Help and version as argument-parser prints them; a usage error as one line, `gymcard: <what>; see
    /// 'gymcard <command> --help'`, exit status 64 (argument-parser's own text has `Error:` and 2–3
    /// usage lines). An error nobody words is gymcard's own fault: one line, exit 70.
    private static func unknownError(_ error: any Error, arguments: [String]) -> Never {
        let status = Gymcard.exitCode(for: error)
        guard status != .success else {
            // Help or the version, as argument-parser prints them, then the check that they arrived.
            Terminal.standardOutput.line(Gymcard.fullMessage(for: error))
            finish(0)
        }
        guard status == .validationFailure else {
            Terminal.standardError.say("internal error: \(error); please report it")
            Glibc.exit(ExitStatus.software.rawValue)
        }
        Terminal.standardError.say(
            UsageLine.line(Gymcard.message(for: error), arguments, root: CommandNames(Gymcard.self)))
        Glibc.exit(ExitStatus.usage.rawValue)
    }
}

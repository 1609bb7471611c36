import ArgumentParser
import CampusFeature
import CardFeature
import Console
import Diagnosis
import GymcardCore

/// `gymcard doctor`: what is set up, what loads, and what to do about what does not.
struct DoctorCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check gymcard's files, libraries, config, campus and collection timer, and say what to do.",
        discussion: """
            Each line is a check: ok; note (not set up, or an optional part missing: gymcard works, with less); or \
            problem (something to fix). A note or problem says what to do. The checks: where gymcard keeps its \
            files (the stored card's folder 0700 and file 0600, whole or damaged: no ID is shown); which optional \
            libraries load (libzbar, libcrypto, the zxing reader, libdmtx, libheif, libwebp, libtiff, libzint, libzip, \
            libsqlite3), each through the loader the command that needs it uses; whether the config file is valid; \
            the campus, time zone and addresses in use; whether the collection timer runs (the systemd user timer \
            `collect --install` writes, or a crontab line); and when the history last recorded.

            doctor does not use the network: it shows the addresses in use but not whether they answer \
            (`gymcard occupancy` and `gymcard events` do). The exit status is 0 when no check found a \
            problem, 1 when one did.

            --json prints one object: ok (no problem) and checks, each with topic, name, status (ok, \
            note or problem), detail and advice (null when there is nothing to do).
            """
    )

    @Flag(name: .long, help: "Print as one JSON object.")
    var json = false

    func run(in context: Context) throws {
        let report = DoctorReport(Doctor.checks(context, run: ChildProcess.statusAndOutput))
        if json {
            Terminal.standardOutput.line(report.json)
        } else {
            Terminal(environment: context.environment).printLines(report.lines)
        }
        if report.problems > 0 { throw Failure.silent(.nothingFound) }
    }
}

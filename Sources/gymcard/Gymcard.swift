import ArgumentParser
import Glibc

/// The `gymcard` command: parses, calls the libraries, prints, and maps failures to exit codes.
@main
struct Gymcard: AsyncParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "gymcard",
        abstract: "Gym membership barcodes in the terminal: show, render and scan Codabar member cards.",
        discussion: """
            gymcard turns a gym member ID into a Codabar barcode that turnstile scanners accept: on the \
            terminal, as PNG or SVG, or as a companion QR code. IDs are normalized first: nine digits \
            (also written 1234-56789) are a Virginia Tech ID and become A123456789B; otherwise A is \
            prepended and B appended when the ID does not already start and end with A-D.
            """,
        version: version,
        subcommands: [
            Scan.self, SetCommand.self, Show.self, Forget.self, PassphraseCommand.self, Render.self,
            OccupancyCommand.self, FacilitiesCommand.self,
        ]
    )

    /// Entry point: `--qr` given with no file name means "draw the QR on the terminal".
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(QROption.rewritingBareFlag(in: arguments))
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            // Leave now: returning from an async main can leave the process waiting seconds for idle
            // Dispatch worker threads (seen when many gymcard processes ran at once).
            Glibc.exit(0)
        } catch let failure as Failure {
            if !failure.message.isEmpty { Terminal.standardError.say(failure.message) }
            Glibc.exit(failure.status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard render --batch`: one image per ID in a file, on every core, with flat memory.
struct Render: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render many IDs to image files.",
        discussion: """
            <file> holds one ID per line (- reads standard input); blank lines and lines starting with # are skipped. Each ID is \
            drawn in Codabar, or in the symbology --symbology names, and written to <dir> as its \
            normalized form plus the extension, e.g. A123456789B.png; in Codabar names, / is written _, \
            : is written = and $ is written S; in other symbologies' names, every character but letters, \
            digits and - + = . is written as % and its hex code (GYM/42 is GYM%2F42.png). IDs that normalize to the same symbol share \
            one file. A bad line is reported with its line number and skipped; the exit status is \
            then 65. A line that is not text (a NUL byte, bytes that are not UTF-8, or over 64 KiB) is \
            skipped too, and the third one stops the batch with one message: the file is taken for a \
            binary one (exit status 65). <dir> is created when missing; an existing one is written into and otherwise left as it \
            is. Each file appears complete or not at all, so Ctrl-C stops the batch with only complete \
            files written (exit status 130).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, svg
    }

    @Option(
        name: .long, help: ArgumentHelp("The file of IDs, one per line.", valueName: "file"),
        completion: .file())
    var batch: String

    @Option(
        name: [.short, .long], help: ArgumentHelp("The directory to write the images to.", valueName: "dir"),
        completion: .directory)
    var out: String

    @Option(name: .long, help: "The image format: png or svg.")
    var format: Format = .png

    @OptionGroup var symbolOptions: SymbolOptions

    func run(in context: Context) throws {
        let symbology = try symbolOptions.symbology ?? .codabar
        let settings = symbolOptions.settings
        try settings.check(for: symbology)
        try CardDrawing.requireDrawer(for: symbology)
        let render = BatchRender(
            format: format == .png ? .png : .svg, style: try settings.style(),
            checkCharacter: settings.checkCharacter, symbology: symbology)
        let showsProgress = Terminal.standardError.isTerminal
        let list = try BatchList(batch, counting: showsProgress)
        let destination = try BatchDestination(directory: out)
        // Ctrl-C or SIGTERM: finish the files being written, then stop with a report.
        Interrupt.stopBetweenSteps()
        defer { destination.finish() }
        // The progress line is ended before any message after it.
        defer { if showsProgress { Terminal.standardError.write("\n") } }
        try render.run(
            list.lines, source: list.source, into: destination, stopSignal: { Interrupt.pendingSignal },
            warn: context.warn
        ) { event in
            if let message = event.message(source: list.source) {
                Terminal.standardError.say(message)
            } else if showsProgress, case .progress(let lines) = event {
                Terminal.standardError.write(
                    "\rrendered \(lines)\(list.idCount.map { " of \($0)" } ?? "") IDs")
            }
        }
    }
}

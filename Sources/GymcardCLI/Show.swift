import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore
import Turnstile

/// `gymcard show`: the barcode on the terminal, or written to PNG, SVG and QR files.
struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the barcode on the terminal, or write it as PNG, SVG or QR.",
        discussion: """
            With no file option, on a terminal, the card fills the screen for the turnstile: the largest \
            barcode that fits, quiet zones included, with the ID and the card's label under it, on the \
            alternate screen. Any key closes it, as does --timeout; the screen is then as it was and \
            nothing of the card stays in the scrollback. Resizing redraws it: on a terminal too narrow \
            for the barcode it is turned a quarter, and when it fits neither way its QR code is drawn \
            with a line that says so (a turnstile's scanner may read only the barcode). On kitty, Ghostty, WezTerm and Konsole (kitty \
            graphics), on sixel terminals (xterm -ti vt340, foot, mlterm, Windows Terminal) and in iTerm2 \
            the barcode is a real image at its exact pixel size, each bar a whole number of pixels, and \
            never larger than the terminal says it draws (xterm's sixel limit is 1000x1000 unless \
            maxGraphicSize sets it; a larger image would vanish): a smaller scale, or blocks when that \
            leaves under two pixels a bar; \
            elsewhere, and inside tmux without allow-passthrough, it is drawn in black-on-white blocks. \
            The drawing stays black on white with NO_COLOR or --no-color (it is the picture a scanner \
            reads, not decoration; only the text loses its bold and dim). The terminal is asked what it \
            can draw (about 100 ms at most). Camera (imager) scanners read screens; laser scanners mostly \
            cannot.

            While the card fills the screen a laptop's backlight is at full, through systemd-logind \
            (no root needed), and it comes back to the level it had however the card closes: a key, the \
            timeout, Ctrl-C, SIGTERM, a hang-up, a crash or kill -9 (a gymcard process of its own holds \
            the level). Nothing is done or said without a backlight, over ssh, or when it is already at \
            full. --no-brightness, or "show": {"brightness": false} in the config file, leaves it alone.

            With TERM=dumb the screen is not taken (a dumb terminal has no alternate screen or cursor \
            addressing): the barcode is printed in plain characters, which read only on a light \
            background, with a warning that names --png; the exit status is 0.

            --inline prints the drawing into the scrollback instead, as does a pipe, turned or as the QR \
            code (with a warning) in the same way. Give - as a file \
            name to write to standard output. Without --id, the stored card is used, after its \
            passphrase when it has one, in its own symbology; --id draws in Codabar unless \
            --symbology names another (every one but Codabar is drawn with libzint).
            """
    )

    @Option(name: .long, help: ArgumentHelp("The ID to draw instead of the stored card.", valueName: "id"))
    var id: String?

    @Option(
        name: .long, help: ArgumentHelp("Write the barcode as a PNG image.", valueName: "file"),
        completion: .pngFiles)
    var png: String?

    @Option(
        name: .long, help: ArgumentHelp("Write the barcode as an SVG image.", valueName: "file"),
        completion: .svgFiles)
    var svg: String?

    // `--qr` alone draws on the terminal; `.next`: a value only right after it (`--qr --inline` is bare).
    @Option(
        name: .long, defaultAsFlag: QRDestination.terminal, parsing: .next,
        help: ArgumentHelp(
            "Write the companion QR code as a PNG image; with no <file>, draw it on the terminal.",
            valueName: "file"),
        completion: .pngFiles)
    var qr: QRDestination?

    @Flag(
        name: .customLong("no-color"),
        help: "Draw on the terminal without colour codes (the full-screen card stays black on white).")
    var noColor = false

    @Flag(name: [.short, .long], help: "Write a PNG to standard output even when it is a terminal.")
    var force = false

    @Flag(
        name: .customLong("no-brightness"),
        help: "Leave the laptop's backlight as it is while the card fills the screen.")
    var noBrightness = false

    @Flag(name: .long, help: "Print the drawing into the scrollback instead of taking the screen.")
    var inline = false

    @Option(name: .long, help: ArgumentHelp("How the full-screen card is drawn.", valueName: "renderer"))
    var renderer: RendererChoice = .auto

    // Unconditional, so `--timeout -1` reaches validate() and its message instead of "missing value".
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds until the full-screen card closes by itself (0: only a key closes it).",
            valueName: "seconds"))
    var timeout: Double = 60

    @OptionGroup var symbolOptions: SymbolOptions

    @OptionGroup var passphrases: PassphraseOptions

    func validate() throws {
        guard timeout.isFinite, (0...86400).contains(timeout) else {
            throw ValidationError("--timeout must be 0 to 86400 seconds (not \(timeout))")
        }
    }

    func run(in context: Context) throws {
        let files: [(SymbolFile, String)] = [(.png, png), (.svg, svg), (.qr, qr?.path)].compactMap {
            kind, path in
            path.map { (kind, $0) }
        }
        guard files.filter({ $0.1 == "-" }).count <= 1 else {
            throw Failure(
                "only one of --png, --svg and --qr can write to standard output (-); give the others file names",
                status: .usage)
        }
        try OutputFile.checkBinary(to: png, what: "a PNG", force: force)
        try OutputFile.checkBinary(to: qr?.path, what: "a PNG (the QR code)", example: "qr.png", force: force)
        let settings = symbolOptions.settings
        if qr != nil, png == nil, svg == nil { try settings.checkQROnly() }
        // An ID's symbology is known now: a Codabar setting for another is refused as such, before its range.
        if id != nil { try settings.check(for: try symbolOptions.symbology ?? .codabar) }
        let style = try settings.style()
        let screen = CardScreen(context, noColor: noColor)
        // The config file is read only for the full-screen card, and before any passphrase is asked.
        let takesScreen = files.isEmpty && !inline && screen.canTakeScreen
        let brightness = takesScreen && !noBrightness ? try ShowSettings(context: context).brightness : false
        let (content, label) = try settings.content(
            id: id, symbology: try symbolOptions.symbology,
            stored: { CardAccess(context: context, passphrases: passphrases.passphrases()) },
            warn: context.warn)
        var drawing: TurnstileContent.Drawing
        switch try CardDrawing(content) {
        case .codabar(let symbol): drawing = .codabar(symbol, style.layout)
        case .matrix(let matrix): drawing = .matrix(matrix.onScreen())
        }
        if qr == .terminal { drawing = .qr(try SymbolFile.qrSymbol(for: content.text)) }
        // Drawn instead of a barcode that fits the terminal neither across nor turned.
        let companion = try? SymbolFile.qrSymbol(for: content.text)
        // A dumb terminal cannot take the screen: the drawing is printed inline, plain, with a warning.
        if takesScreen,
            try screen.fullScreen(
                TurnstileContent(
                    drawing: drawing, caption: content.displayText, label: label,
                    hint: screen.raisesBacklight(brightness)
                        ? "any key closes" : "any key closes · turn the screen brightness up",
                    qrCode: companion),
                renderer: renderer.renderer, timeout: timeout, brightness: brightness)
        {
            return
        }
        for (kind, path) in files { try NamedOutput.write(kind.bytes(of: content, style: style), to: path) }
        // The barcode goes to the terminal only when nothing else was asked for.
        guard qr == .terminal || (files.isEmpty && qr == nil) else { return }
        try screen.draw(
            drawing, qrCode: companion, what: qr == .terminal ? "QR code" : "barcode",
            imageOption: qr == .terminal ? "--qr <file>" : "--png <file>")
    }

    /// How `--renderer` draws the full-screen card.
    enum RendererChoice: String, CaseIterable, ExpressibleByArgument {
        case auto, kitty, sixel, iterm, blocks

        /// The renderer, or `nil` for what the terminal says it can draw.
        var renderer: TurnstileRenderer? { TurnstileRenderer(rawValue: rawValue) }
    }

    /// Where `--qr` goes: a file, or (`--qr` alone) the terminal.
    enum QRDestination: Equatable, ExpressibleByArgument, CustomStringConvertible {
        case terminal
        case file(String)

        init?(argument: String) { self = .file(argument) }

        var path: String? {
            guard case .file(let path) = self else { return nil }
            return path
        }

        /// As `--help` shows the value `--qr` alone stands for.
        var description: String { "terminal" }
    }
}

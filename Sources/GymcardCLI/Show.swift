import ArgumentParser
import CardVault
import Codabar
import Imaging
import Symbols

/// `gymcard show`: the barcode on the terminal, or written to PNG, SVG and QR files.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the barcode on the terminal, or write it as PNG, SVG or QR.",
        discussion: """
            With no file option the barcode is drawn on the terminal in black on white, quiet zones \
            included, sized to the terminal's width. Give - as a file name to write to standard output. \
            Without --id, the stored card is used, after its passphrase when it has one.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The ID to draw instead of the stored card.", valueName: "ID"))
    var id: String?

    @Option(name: .long, help: ArgumentHelp("Write the barcode as a PNG image.", valueName: "FILE"))
    var png: String?

    @Option(name: .long, help: ArgumentHelp("Write the barcode as an SVG image.", valueName: "FILE"))
    var svg: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the companion QR code as a PNG image; with no FILE, draw it on the terminal.",
            valueName: "FILE"))
    var qr: String?

    @Flag(name: .customLong(QROption.terminalFlag), help: .hidden)
    var qrOnTerminal = false

    @Flag(name: .customLong("no-color"), help: "Draw on the terminal without colour codes.")
    var noColor = false

    @OptionGroup var symbolOptions: SymbolOptions

    @OptionGroup var passphrases: PassphraseOptions

    func run() throws {
        let style = try symbolOptions.style()
        let symbol = try resolveSymbol()
        let terminal = Terminal()
        if let png {
            try OutputFile.write(try encodePNG(CodabarRaster.image(of: symbol, style: style)), to: png)
        }
        if let svg { try OutputFile.write(Array(SVGDocument.codabar(symbol, style: style).utf8), to: svg) }
        if let qr {
            let code = try qrSymbol(for: symbol)
            try OutputFile.write(try encodePNG(code.image(moduleSize: 2 * style.narrowBarWidth)), to: qr)
        }
        if qrOnTerminal {
            let code = try qrSymbol(for: symbol)
            try draw(terminal: terminal) { palette in
                try TerminalArt.qr(
                    code, palette: palette, availableColumns: terminal.columns, availableRows: terminal.rows)
            }
        }
        // The Codabar goes to the terminal only when nothing else was asked for.
        guard png == nil, svg == nil, qr == nil, !qrOnTerminal else { return }
        try draw(terminal: terminal) { palette in
            try TerminalArt.codabar(
                symbol, layout: style.layout, palette: palette, availableColumns: terminal.columns)
        }
    }

    /// `--id`, or the stored card (asking for its passphrase when it has one).
    private func resolveSymbol() throws -> CodabarSymbol {
        if let id { return try symbolOptions.symbol(for: id) }
        let (card, _) = try CardAccess(passphrases: passphrases).unlock()
        let stored: CodabarSymbol
        do { stored = try card.record.symbol() } catch { throw CardAccess.failure(error) }
        return try symbolOptions.finished(stored)
    }

    private func qrSymbol(for symbol: CodabarSymbol) throws -> QRSymbol {
        do { return try QRSymbol(encoding: symbol.text) } catch {
            throw Failure(error.description, status: .dataError)
        }
    }

    private func encodePNG(_ image: BitImage) throws -> [UInt8] {
        do { return try PNGCodec.encode(image) } catch { throw Failure(error.description, status: .ioError) }
    }

    private func draw(terminal: Terminal, _ lines: (TerminalArt.Palette) throws -> [String]) throws {
        var palette = TerminalArt.Palette.blackOnWhite
        if let reason = terminal.reasonColourIsOff(noColorFlag: noColor) {
            palette = .plain
            Terminal.standardError.say(
                "colours are off (\(reason)): the bars are plain text and read only on a light background; "
                    + "for a reliable image use --png")
        }
        do { terminal.printLines(try lines(palette)) } catch let error as SymbolError {
            throw Failure(error.description, status: .ioError)
        }
    }
}

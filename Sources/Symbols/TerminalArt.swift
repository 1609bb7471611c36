import Codabar

/// Barcodes drawn with Unicode block characters, for showing at a turnstile straight from a terminal.
///
/// A Codabar module is half a character cell wide (`▌` `▐` `█`), so a VT ID fits 80 columns; a QR
/// module is one cell wide and half a cell tall (`▀` `▄` `█`), which makes modules square.
public enum TerminalArt {
    /// How colours are handled.
    public enum Palette: Sendable {
        /// Black bars on a white background with explicit 256-colour codes (16 = #000000, 231 = #ffffff,
        /// entries of the colour cube that themes do not remap), so a dark theme cannot invert the symbol.
        case blackOnWhite
        /// No escape codes: dark modules are block characters, light ones spaces. Reads only on a light
        /// background.
        case plain
    }

    /// Most half-columns one Codabar narrow element may take when the terminal is wide.
    static let maximumHalfColumnsPerNarrowBar = 4

    /// The Codabar symbol as lines of text, quiet zones included, as wide as the terminal allows.
    ///
    /// - Parameters:
    ///   - availableColumns: the terminal's width; `nil` draws at the smallest size.
    ///   - barRows: how many rows the bars take; `nil` for at least 15 % of the symbol's width.
    public static func codabar(
        _ symbol: CodabarSymbol, layout: CodabarLayout, palette: Palette, availableColumns: Int?,
        barRows: Int? = nil
    ) throws(SymbolError) -> [String] {
        try bars(
            palette: palette, availableColumns: availableColumns, barRows: barRows,
            rowAt: { layout.row(of: symbol, narrowWidth: $0) })
    }

    /// Any symbol as lines of text, quiet zones included: a linear one as Codabar is drawn (a module half
    /// a cell wide or more, as wide as the terminal allows), a 2D one as QR is.
    ///
    /// - Parameters:
    ///   - availableColumns: the terminal's width; `nil` draws at the smallest size.
    ///   - availableRows: the terminal's height, for a 2D symbol; see ``qr(_:palette:availableColumns:availableRows:)``.
    ///   - barRows: how many rows a linear symbol's bars take; `nil` for at least 15 % of its width.
    public static func matrix(
        _ matrix: ModuleMatrix, palette: Palette, availableColumns: Int?, availableRows: Int? = nil,
        barRows: Int? = nil
    ) throws(SymbolError) -> [String] {
        if matrix.isLinear {
            return try bars(
                palette: palette, availableColumns: availableColumns, barRows: barRows,
                rowAt: { matrix.pixelRow(moduleWidth: $0) })
        }
        return try grid(
            width: matrix.totalColumns, height: matrix.totalModuleRows, palette: palette,
            availableColumns: availableColumns, availableRows: availableRows,
            isDark: { matrix.isDarkInDrawing(column: $0, moduleRow: $1) })
    }

    /// Any linear symbol: one row of bars at `rowAt(n)` (n half-columns per narrow module, 1 up to 4 as the
    /// width allows) painted in half cells, between two blank lines.
    public static func bars(
        palette: Palette, availableColumns: Int?, barRows: Int?, rowAt: (Int) -> [Bool]
    ) throws(SymbolError) -> [String] {
        var narrow = 1
        var row = rowAt(narrow)
        let needed = (row.count + 1) / 2
        if let availableColumns {
            guard needed <= availableColumns else {
                throw .terminalTooNarrow(requiredColumns: needed, availableColumns: availableColumns)
            }
            while narrow < maximumHalfColumnsPerNarrowBar {
                let wider = rowAt(narrow + 1)
                guard (wider.count + 1) / 2 <= availableColumns else { break }
                narrow += 1
                row = wider
            }
        }
        if row.count % 2 == 1 { row.append(false) }
        let cells = stride(from: 0, to: row.count, by: 2).map { (row[$0], row[$0 + 1]) }
        let line = paint(cells, glyphs: .leftRight, palette: palette)
        // Bars at least 15 % as tall as the symbol is wide; a cell is about twice as tall as wide.
        let height = barRows ?? max(5, (row.count + 19) / 20)
        let blank = paint(
            Array(repeating: (false, false), count: cells.count), glyphs: .leftRight, palette: palette)
        return [blank] + Array(repeating: line, count: height) + [blank]
    }

    /// The QR symbol as lines of text, with its 4-module quiet zone.
    ///
    /// In colour, when the terminal has the room (`availableRows` and twice the columns), each module is
    /// two background-coloured spaces on one row: square, and independent of how the font draws block
    /// glyphs. Otherwise, and in plain text, a module is half a cell tall (`▀` `▄`).
    public static func qr(
        _ symbol: QRSymbol, palette: Palette, availableColumns: Int?, availableRows: Int? = nil
    ) throws(SymbolError) -> [String] {
        try matrix(
            symbol.matrix, palette: palette, availableColumns: availableColumns, availableRows: availableRows)
    }

    /// A grid of `width` × `height` modules (quiet zone included) as QR is drawn.
    static func grid(
        width: Int, height: Int, palette: Palette, availableColumns: Int?, availableRows: Int?,
        isDark: (Int, Int) -> Bool
    ) throws(SymbolError) -> [String] {
        if let availableColumns, width > availableColumns {
            throw .terminalTooNarrow(requiredColumns: width, availableColumns: availableColumns)
        }
        func dark(_ x: Int, _ y: Int) -> Bool { y < height && isDark(x, y) }
        if case .blackOnWhite = palette, let availableColumns, let availableRows,
            2 * width <= availableColumns, height < availableRows
        {
            return (0..<height).map { y in
                paint(
                    (0..<width).flatMap { x in [(dark(x, y), dark(x, y)), (dark(x, y), dark(x, y))] },
                    glyphs: .topBottom, palette: palette)
            }
        }
        return stride(from: 0, to: height, by: 2).map { top in
            paint(
                (0..<width).map { (dark($0, top), dark($0, top + 1)) }, glyphs: .topBottom, palette: palette)
        }
    }

    /// Which halves of a cell the two modules of a pair fill.
    enum HalfGlyphs {
        /// Codabar: left and right halves (`▌` `▐`).
        case leftRight
        /// QR: top and bottom halves (`▀` `▄`).
        case topBottom

        var first: Character { self == .leftRight ? "▌" : "▀" }
        var second: Character { self == .leftRight ? "▐" : "▄" }
    }

    /// One line of cells, each holding two modules (dark = `true`).
    ///
    /// In colour, a cell whose halves agree is a space on a black or white background, because a
    /// background always fills the whole cell while many fonts draw `█` narrower than the cell (measured
    /// in xterm: 9 of 11 px, which split every wide bar in two). Mixed cells all use the one glyph `▌`
    /// (or `▀`), with foreground and background swapped for light-dark, so every split falls in the
    /// same place. Plain text can only draw dark, so it uses `█` and both half glyphs.
    static func paint(_ cells: [(Bool, Bool)], glyphs: HalfGlyphs, palette: Palette) -> String {
        switch palette {
        case .plain:
            return String(
                cells.map { first, second in
                    switch (first, second) {
                    case (true, true): return "█"
                    case (true, false): return glyphs.first
                    case (false, true): return glyphs.second
                    case (false, false): return " "
                    }
                })
        case .blackOnWhite:
            var line = ""
            var current: (foreground: Bool, background: Bool)?
            for (first, second) in cells {
                let glyph: Character = first == second ? " " : glyphs.first
                // For a space only the background shows; keep the foreground to avoid needless codes.
                let wanted = (
                    foreground: first == second ? (current?.foreground ?? true) : first, background: second
                )
                if current.map({ $0 != wanted }) ?? true {
                    line +=
                        "\u{1B}[38;5;\(wanted.foreground ? 16 : 231);48;5;\(wanted.background ? 16 : 231)m"
                    current = wanted
                }
                line.append(glyph)
            }
            return line + "\u{1B}[0m"
        }
    }
}

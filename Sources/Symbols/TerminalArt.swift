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
    /// - Parameter availableColumns: the terminal's width; `nil` draws at the smallest size.
    public static func codabar(
        _ symbol: CodabarSymbol, layout: CodabarLayout, palette: Palette, availableColumns: Int?
    ) throws(SymbolError) -> [String] {
        var narrow = 1
        var row = layout.row(of: symbol, narrowWidth: narrow)
        let needed = (row.count + 1) / 2
        if let availableColumns {
            guard needed <= availableColumns else {
                throw .terminalTooNarrow(requiredColumns: needed, availableColumns: availableColumns)
            }
            while narrow < maximumHalfColumnsPerNarrowBar {
                let wider = layout.row(of: symbol, narrowWidth: narrow + 1)
                guard (wider.count + 1) / 2 <= availableColumns else { break }
                narrow += 1
                row = wider
            }
        }
        if row.count % 2 == 1 { row.append(false) }
        var line = ""
        for index in stride(from: 0, to: row.count, by: 2) {
            switch (row[index], row[index + 1]) {
            case (true, true): line += "█"
            case (true, false): line += "▌"
            case (false, true): line += "▐"
            case (false, false): line += " "
            }
        }
        // Bars at least 15 % as tall as the symbol is wide; a cell is about twice as tall as wide.
        let height = max(5, (row.count + 19) / 20)
        let blank = String(repeating: " ", count: row.count / 2)
        return paint([blank] + Array(repeating: line, count: height) + [blank], palette: palette)
    }

    /// The QR symbol as lines of text, with its 4-module quiet zone.
    public static func qr(_ symbol: QRSymbol, palette: Palette, availableColumns: Int?) throws(SymbolError)
        -> [String]
    {
        let quiet = QRSymbol.quietZoneModules
        let side = symbol.size + 2 * quiet
        if let availableColumns, side > availableColumns {
            throw .terminalTooNarrow(requiredColumns: side, availableColumns: availableColumns)
        }
        func dark(_ x: Int, _ y: Int) -> Bool {
            let column = x - quiet
            let row = y - quiet
            guard (0..<symbol.size).contains(column), (0..<symbol.size).contains(row) else { return false }
            return symbol.isDark(x: column, y: row)
        }
        var lines: [String] = []
        for top in stride(from: 0, to: side, by: 2) {
            var line = ""
            for x in 0..<side {
                switch (dark(x, top), dark(x, top + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return paint(lines, palette: palette)
    }

    private static func paint(_ lines: [String], palette: Palette) -> [String] {
        switch palette {
        case .plain: return lines
        case .blackOnWhite: return lines.map { "\u{1B}[38;5;16;48;5;231m" + $0 + "\u{1B}[0m" }
        }
    }
}

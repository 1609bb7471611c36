extension TerminalArt {
    /// Most half-rows one narrow module of a turned linear symbol takes when the terminal is tall.
    static let maximumHalfRowsPerTurnedModule = 4

    /// The fewest columns a turned symbol's bars are long.
    public static let minimumTurnedBarColumns = 6

    /// A linear symbol turned a quarter clockwise, for a terminal too narrow for it across: its start at
    /// the top, quiet zones included, each module half a row (`▀` `▄`, two to a row; 1 up to 4 half-rows
    /// per narrow module as `availableRows` allows), each bar a row between two light columns. Camera
    /// scanners read a barcode in any orientation.
    ///
    /// - Parameters:
    ///   - availableColumns: the terminal's width; the bars are two thirds as many columns as the symbol
    ///     takes rows (a cell is about twice as tall as wide: a third of its length, as across), at least
    ///     ``minimumTurnedBarColumns``, and no wider than the terminal.
    ///   - availableRows: the rows the drawing may take; `nil` draws at the smallest size.
    public static func turnedBars(
        palette: Palette, availableColumns: Int?, availableRows: Int?, rowAt: (Int) -> [Bool]
    ) -> [String] {
        var row = rowAt(1)
        if let availableRows {
            var narrow = 1
            while narrow < maximumHalfRowsPerTurnedModule {
                let taller = rowAt(narrow + 1)
                guard (taller.count + 1) / 2 <= availableRows else { break }
                narrow += 1
                row = taller
            }
        }
        if row.count % 2 == 1 { row.append(false) }
        let lineCount = row.count / 2
        var barColumns = max(minimumTurnedBarColumns, lineCount * 2 / 3)
        if let availableColumns { barColumns = max(1, min(barColumns, availableColumns - 2)) }
        return (0..<lineCount).map { line in
            let pair = (row[2 * line], row[2 * line + 1])
            return paint(
                [(false, false)] + Array(repeating: pair, count: barColumns) + [(false, false)],
                glyphs: .topBottom, palette: palette)
        }
    }

    /// A 2D symbol turned a quarter clockwise (a wide one such as PDF417, for a narrow terminal), drawn
    /// as ``matrix(_:palette:availableColumns:availableRows:barRows:)`` draws one across.
    public static func turnedGrid(
        _ matrix: ModuleMatrix, palette: Palette, availableColumns: Int?, availableRows: Int?
    ) throws(SymbolError) -> [String] {
        let height = matrix.totalModuleRows
        return try grid(
            width: height, height: matrix.totalColumns, palette: palette, availableColumns: availableColumns,
            availableRows: availableRows,
            isDark: { matrix.isDarkInDrawing(column: $1, moduleRow: height - 1 - $0) })
    }
}

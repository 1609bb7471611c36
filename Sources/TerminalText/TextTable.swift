/// Columns padded to their widest cell, two spaces apart, one line per row (`campus list`,
/// `facilities`). Cells come from pages and the config file: they are made terminal-safe before the
/// columns are measured.
public enum TextTable {
    /// The header and rows as lines joined with newlines; the last column is not padded.
    public static func text(header: [String], rows: [[String]]) -> String {
        let all = ([header] + rows).map { $0.map(\.terminalSafe) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = row.enumerated().map { index, cell in
                index == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

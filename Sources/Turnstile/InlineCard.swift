import Symbols

/// The card printed into the scrollback (`gymcard show --inline`, or a pipe), in the first form that fits
/// the terminal: across, turned a quarter, or the companion QR code with a word that says so.
public enum InlineCard {
    /// The lines, and what to tell the person when the QR code stands in for the barcode (else `nil`).
    ///
    /// - Parameters:
    ///   - columns: the terminal's width; `nil` (a pipe without `$COLUMNS`) draws across, at the smallest
    ///     size.
    ///   - rows: the terminal's height when it says: a drawing taller than the screen less the prompt's
    ///     row cannot be scanned whole, so it does not fit; `nil` does not limit the height.
    public static func lines(
        _ drawing: TurnstileContent.Drawing, qrCode: QRSymbol?, palette: TerminalArt.Palette, columns: Int?,
        rows: Int?
    ) throws(SymbolError) -> (lines: [String], notice: String?) {
        let candidates = CardCandidate.all(for: drawing, qrCode: qrCode)
        guard let columns else {
            return (try candidates[0].blockLines(palette: palette, columns: nil, rows: nil), nil)
        }
        let available = rows.map { max(0, $0 - 1) }
        var needs: [ScreenNeed] = []
        for candidate in candidates {
            let need = candidate.blockNeed
            needs.append(
                ScreenNeed(
                    form: candidate.form, columns: need.columns, rows: need.rows + (rows == nil ? 0 : 1)))
            guard need.columns <= columns, need.rows <= (available ?? need.rows) else { continue }
            // Across, bars are as tall as they always were inline; turned, as long as the screen allows.
            let lines = try candidate.blockLines(
                palette: palette, columns: columns,
                rows: candidate.form == .across && !drawing.isGrid ? nil : available)
            guard candidate.form == .qrCode else { return (lines, nil) }
            let wanted = needs.dropLast().map { $0.wording(columns: columns, rows: rows) }
            return (
                lines,
                "the terminal is too small for the barcode (it needs \(wanted.joined(separator: ", or "))): "
                    + "this is its QR code, which not every scanner reads"
            )
        }
        throw .terminalTooSmall(needs: needs, columns: columns, rows: rows)
    }
}

extension TurnstileContent.Drawing {
    /// Whether the symbol is 2D (drawn to the rows it has, where a row of bars is drawn to its width).
    var isGrid: Bool {
        if case .grid = shape { return true }
        return false
    }
}

import TerminalText

/// The text under the full-screen drawing, fitted to the screen's width: the ID and the label (cut at the
/// edge), the word that says the QR code stands in for the barcode, and the hint on the last rows (both
/// wrapped, at a ` · ` first, so a phone's 40 columns cut nothing).
struct TurnstileCaption {
    let content: TurnstileContent
    let columns: Int
    let notice: [String]
    let hint: [String]

    init(_ content: TurnstileContent, notice: String?, columns: Int) {
        self.content = content
        self.columns = columns
        self.notice = notice.map { Self.wrap($0, columns: columns) } ?? []
        hint = Self.wrap(content.hint, columns: columns)
    }

    /// Rows the text takes with the row above the drawing and the blank under it; the label's row is
    /// kept when there is no label.
    var rows: Int { 4 + notice.count + hint.count }

    /// The text, from the row under the drawing, the hint on the screen's last rows. `colour` makes the
    /// ID bold and the hint dim.
    func text(below row: Int, screenRows: Int, colour: Bool) -> String {
        func centred(_ text: String, row: Int, style: String) -> String {
            let shown = String(text.prefix(max(0, columns)))
            let column = max(1, (columns - shown.count) / 2 + 1)
            return TurnstileFrame.moveTo(row: row, column: column) + (colour ? style : "") + shown
                + (colour ? "\u{1B}[0m" : "")
        }
        let hintTop = screenRows - hint.count + 1
        let noticeTop = min(row + 3, hintTop - notice.count)
        var text = centred(content.caption, row: min(row + 1, noticeTop - 2), style: "\u{1B}[1m")
        if let label = content.label, !label.isEmpty {
            // The label is the card file's text: shown, never obeyed, by the terminal.
            text += centred(label.terminalSafe, row: min(row + 2, noticeTop - 1), style: "")
        }
        for (offset, line) in notice.enumerated() {
            text += centred(line, row: noticeTop + offset, style: "")
        }
        for (offset, line) in hint.enumerated() {
            text += centred(line, row: hintTop + offset, style: "\u{1B}[2m")
        }
        return text
    }

    /// `text` in lines of at most `columns` characters: whole ` · ` parts where they fit, else words
    /// (a word longer than a line is cut).
    static func wrap(_ text: String, columns: Int) -> [String] {
        let width = max(1, columns)
        var lines: [String] = []
        var current = ""
        func add(_ piece: Substring, joiner: String) {
            let joined = current.isEmpty ? String(piece) : current + joiner + piece
            if joined.count <= width {
                current = joined
                return
            }
            if !current.isEmpty { lines.append(current) }
            current = String(piece.prefix(width))
        }
        for part in text.split(separator: " · ") {
            if part.count <= width || (current + " · " + part).count <= width {
                add(part, joiner: " · ")
                continue
            }
            for (index, word) in part.split(separator: " ").enumerated() {
                add(word, joiner: index == 0 ? " · " : " ")
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

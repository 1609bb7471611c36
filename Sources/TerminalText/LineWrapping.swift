extension String {
    /// The columns the string takes on a terminal: its characters, not counting escape sequences
    /// (`ESC [ … m` colours, cursor moves: up to their final byte, `@` to `~`), which take none.
    public var visibleWidth: Int {
        var width = 0
        var inEscape = false
        for scalar in unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }

    /// The line broken at spaces into lines of at most `columns` visible characters, every line after the
    /// first starting with `indent` spaces; a word longer than a line is cut. Runs of spaces inside a line
    /// (aligned columns) are kept; a break swallows the run it falls on. With `columns` `nil`, or when the
    /// line already fits, the line unchanged. Escape sequences stay inside their words.
    public func wrapped(columns: Int?, indent: Int = 0) -> [String] {
        guard let columns, visibleWidth > columns else { return [self] }
        // Below 10 columns for the words, the continuation indent would leave a ribbon: start at the edge.
        let margin = String(repeating: " ", count: columns - indent >= 10 ? indent : 0)
        var lines: [String] = []
        var line = ""
        var lineHasWord = false
        for (gap, word) in Self.gapsAndWords(self) {
            var rest = Substring(word)
            while !rest.isEmpty {
                let separator = lineHasWord ? gap : lines.isEmpty && line.isEmpty ? gap : ""
                let width = String(rest).visibleWidth
                if line.visibleWidth + separator.count + width <= columns {
                    line += separator + rest
                    lineHasWord = true
                    rest = ""
                } else if lineHasWord {
                    lines.append(line)
                    (line, lineHasWord) = (margin, false)
                } else {
                    let room = max(1, columns - line.visibleWidth)
                    lines.append(line + rest.prefix(room))
                    rest = rest.dropFirst(room)
                    line = margin
                }
            }
        }
        if lineHasWord { lines.append(line) }
        return lines
    }

    /// Each word with the spaces before it (the first word's are the line's indentation).
    private static func gapsAndWords(_ text: String) -> [(gap: String, word: Substring)] {
        var result: [(gap: String, word: Substring)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let gap = rest.prefix { $0 == " " }
            rest = rest.dropFirst(gap.count)
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            if !word.isEmpty { result.append((String(gap), word)) }
        }
        return result
    }
}

extension Array where Element == String {
    /// Each line wrapped to `columns` (``Swift/String/wrapped(columns:indent:)``), continuation lines
    /// indented as far as the line's own leading spaces plus `indent`.
    public func wrapped(columns: Int?, indent: Int = 0) -> [String] {
        flatMap { line in line.wrapped(columns: columns, indent: line.prefix { $0 == " " }.count + indent) }
    }
}

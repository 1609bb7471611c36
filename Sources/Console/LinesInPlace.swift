/// Lines redrawn in place on a terminal, each refresh over the last (`occupancy --watch`): up to the first
/// line drawn last time (`ESC [ n F`), clear to the end of the screen (`ESC [ J`), then the new lines, each
/// cut to the width so that none wraps (a wrapped line would break "move up"). The cursor is hidden
/// meanwhile and shown again at the end, or on Ctrl-C (`Interrupt.showsCursor`).
public struct LinesInPlace: Sendable {
    /// The terminal's width (`nil`: no limit).
    public let columns: Int?
    /// How many lines the last frame drew.
    public private(set) var drawn = 0

    /// Lines for a terminal `columns` wide.
    public init(columns: Int?) { self.columns = columns }

    /// The text that replaces the last frame by `lines`.
    public mutating func frame(_ lines: [String]) -> String {
        let moveUp = drawn > 0 ? "\u{1B}[\(drawn)F" : ""
        drawn = lines.count
        let clipped = lines.map { line in
            guard let columns, !line.contains("\u{1B}"), line.count > columns else { return line }
            return String(line.prefix(max(1, columns - 1))) + "…"
        }
        return moveUp + "\u{1B}[J" + clipped.joined(separator: "\n") + "\n"
    }

    /// Hides the cursor (before the first frame).
    public static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    public static let showCursor = "\u{1B}[?25h"
}

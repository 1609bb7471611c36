import Glibc
import TerminalText

/// One line on standard error, redrawn in place, when it is a terminal (`wait`'s progress); nothing
/// otherwise. Each draw is cut to the terminal's width so that it never wraps.
public struct StatusLine: Sendable {
    /// Whether the line is drawn (standard error is a terminal).
    public let enabled: Bool
    private let write: @Sendable (String) -> Void

    /// A line written with `write` (to standard error) when `enabled`.
    public init(enabled: Bool, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    /// Replaces the line.
    public func draw(_ text: String) {
        guard enabled else { return }
        write("\r\u{1B}[K" + Self.clipped(text.terminalSafe, columns: Self.columns()))
    }

    /// Removes the line.
    public func clear() {
        if enabled { write("\r\u{1B}[K") }
    }

    /// `text` made to fit `columns` (20 or fewer: taken for 80, a terminal that says nothing useful). Its
    /// parts are ` · ` apart; the first (what is watched, its value) and the last (`wait`'s next check)
    /// say the most, so the parts between them are left out first, in order, then the first is cut.
    static func clipped(_ text: String, columns: Int) -> String {
        let width = columns < 20 ? 80 : columns
        var parts = text.split(separator: " · ", omittingEmptySubsequences: false).map(String.init)
        while parts.count > 2, parts.joined(separator: " · ").count >= width { parts.remove(at: 1) }
        let fitted = parts.joined(separator: " · ")
        guard fitted.count >= width else { return fitted }
        if parts.count == 2, parts[1].count + 5 < width - 2 {
            return String(parts[0].prefix(width - 2 - parts[1].count - 4)) + "… · " + parts[1]
        }
        return String(fitted.prefix(width - 2)) + "…"
    }

    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return 80 }
        return Int(size.ws_col)
    }
}

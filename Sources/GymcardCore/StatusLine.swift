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

    /// `text` cut to fit `columns` (20 or fewer: taken for 80, a terminal that says nothing useful).
    static func clipped(_ text: String, columns: Int) -> String {
        let width = columns < 20 ? 80 : columns
        return text.count >= width ? String(text.prefix(width - 2)) + "…" : text
    }

    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return 80 }
        return Int(size.ws_col)
    }
}

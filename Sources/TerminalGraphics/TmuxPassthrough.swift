/// tmux passes a sequence on to the terminal outside it only wrapped in `ESC Ptmux; … ESC \` with every
/// ESC inside doubled, and only when the pane's `allow-passthrough` option is on.
public enum TmuxPassthrough {
    /// `sequence` wrapped for tmux.
    public static func wrap(_ sequence: String) -> String {
        var inner = ""
        for scalar in sequence.unicodeScalars {
            if scalar == "\u{1B}" { inner.unicodeScalars.append(scalar) }
            inner.unicodeScalars.append(scalar)
        }
        return "\u{1B}Ptmux;" + inner + "\u{1B}\\"
    }
}

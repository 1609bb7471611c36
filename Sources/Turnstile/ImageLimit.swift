import TerminalGraphics

extension TurnstileRenderer {
    /// The largest image this renderer may send to a terminal that answered the probe with `capabilities`,
    /// or `nil` where the protocol has no limit a screen reaches (kitty's is 10,000 pixels a side; iTerm2
    /// states none; see ARCHITECTURE §11).
    ///
    /// Sixel: the maximum the terminal reports; else the geometry it reports (xterm's is its window
    /// clamped to the maximum: after a resize larger, the card keeps the size it had); else
    /// ``SixelImage/assumedMaximum``, since an image past a limit nobody stated vanishes, while one held to
    /// xterm's default still scans.
    public func imageLimit(_ capabilities: TerminalCapabilities) -> PixelSize? {
        switch self {
        case .sixel: capabilities.sixelMaximum ?? capabilities.sixelGeometry ?? SixelImage.assumedMaximum
        case .kitty, .iterm, .blocks: nil
        }
    }
}

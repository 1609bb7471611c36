import TerminalGraphics

extension SixelImage {
    /// The largest sixel image assumed of a terminal that does not say (XTSMGRAPHICS): xterm's default
    /// `maxGraphicSize`. xterm drops a larger image without a word; a card held to 1000 pixels still has
    /// 7 pixels per narrow bar for a 9-digit Codabar ID (ARCHITECTURE §11).
    public static let assumedMaximum = PixelSize(width: 1000, height: 1000)
}

extension TurnstileRenderer {
    /// The largest image this renderer may send to a terminal that answered the probe with `capabilities`,
    /// or `nil` where the protocol has no limit a screen reaches (kitty refuses images over 10,000 pixels a
    /// side; iTerm2 states none; see ARCHITECTURE §11).
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

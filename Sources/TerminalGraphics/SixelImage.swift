import Imaging

/// DEC sixel graphics (xterm `-ti vt340`, foot, mlterm, WezTerm, Windows Terminal) for a two-colour image.
///
/// Both colours are painted explicitly (register 0 white, 1 black) over a transparent background
/// (`P2 = 1`), with raster attributes `"1;1;W;H` so one sixel pixel is one screen pixel.
public enum SixelImage {
    /// The largest sixel image assumed of a terminal that does not say (XTSMGRAPHICS): xterm's default
    /// `maxGraphicSize`. xterm drops a larger image without a word; a card held to 1000 pixels still has
    /// 6 pixels per narrow bar for a 9-digit Codabar ID (ARCHITECTURE §11).
    public static let assumedMaximum = PixelSize(width: 1000, height: 1000)

    /// The DCS sequence that draws `image` at the cursor.
    public static func encode(_ image: BitImage) -> String {
        var output = "\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)"
        output += "#0;2;100;100;100#1;2;0;0;0"
        for bandTop in stride(from: 0, to: image.height, by: 6) {
            for (register, dark) in [(0, false), (1, true)] {
                output += "#\(register)"
                var previous: UInt8 = 0
                var run = 0
                func flush() {
                    guard run > 0 else { return }
                    let character = Character(Unicode.Scalar(63 + previous))
                    output += run > 3 ? "!\(run)\(character)" : String(repeating: character, count: run)
                }
                for x in 0..<image.width {
                    var bits: UInt8 = 0
                    for offset in 0..<6 where bandTop + offset < image.height {
                        if image[x, bandTop + offset] == dark { bits |= 1 << offset }
                    }
                    if bits == previous, run > 0 {
                        run += 1
                    } else {
                        flush()
                        previous = bits
                        run = 1
                    }
                }
                flush()
                // `$` returns to the band's start for the next colour, `-` moves to the next band; the last
                // band ends without `-`, so the cursor does not move below the image.
                if !dark { output += "$" } else if bandTop + 6 < image.height { output += "-" }
            }
        }
        return output + "\u{1B}\\"
    }
}

import Codabar
import Imaging

/// Draws a Codabar symbol as a two-colour image, quiet zones included, with optional text underneath.
public enum CodabarRaster {
    /// The symbol as pixels: one row of bars repeated `style.barHeight` narrow widths high.
    public static func image(of symbol: CodabarSymbol, style: BarcodeStyle) -> BitImage {
        let row = style.layout.row(of: symbol, narrowWidth: style.narrowBarWidth)
        var image = bars(row, height: style.barPixels, imageHeight: style.barPixels + style.textBandPixels)
        if style.showsText {
            let text = symbol.text
            let scale = style.narrowBarWidth
            let left = (image.width - BitmapFont.width(of: text) * scale) / 2
            BitmapFont.draw(text, into: &image, x: left, y: style.barPixels + style.textMargin, scale: scale)
        }
        return image
    }

    /// One row of modules (dark = `true`) drawn `height` pixels tall, at the top of an image
    /// `imageHeight` pixels tall (room for text below).
    public static func bars(_ row: [Bool], height: Int, imageHeight: Int? = nil) -> BitImage {
        var image = BitImage(width: row.count, height: imageHeight ?? height)
        var start: Int?
        // Fill runs of dark pixels as rectangles: one fill per bar, not per pixel.
        for x in 0...row.count {
            let isDark = x < row.count && row[x]
            if isDark, start == nil { start = x }
            if !isDark, let left = start {
                image.fill(x: left, y: 0, width: x - left, height: height)
                start = nil
            }
        }
        return image
    }
}

import Codabar
import Imaging

/// Crisp vector SVG of the same symbols the raster draws: bars at the exact ratio, the text as the same
/// bitmap glyphs (no font dependency), one path for all dark areas.
public enum SVGDocument {
    /// The Codabar symbol in SVG; one user unit is one pixel of the PNG at the same style.
    public static func codabar(_ symbol: CodabarSymbol, style: BarcodeStyle) -> String {
        let unit = Double(style.narrowBarWidth)
        var path = ""
        var x = 0.0
        for (index, width) in style.layout.elementWidths(of: symbol).enumerated() {
            if index % 2 == 1 {
                path += "M\(number(x)) 0h\(number(width * unit))v\(style.barPixels)h-\(number(width * unit))z"
            }
            x += width * unit
        }
        let totalWidth = x
        if style.showsText {
            let text = symbol.text
            let left = ((totalWidth - Double(BitmapFont.width(of: text)) * unit) / 2).rounded(.down)
            let top = Double(style.barPixels + style.textMargin)
            for pixel in BitmapFont.darkPixels(of: text) {
                let px = left + Double(pixel.x) * unit
                let py = top + Double(pixel.y) * unit
                path += "M\(number(px)) \(number(py))h\(number(unit))v\(number(unit))h-\(number(unit))z"
            }
        }
        return document(
            width: totalWidth, height: Double(style.barPixels + style.textBandPixels), path: path)
    }

    /// A QR symbol in SVG with its 4-module quiet zone, `moduleSize` user units per module.
    public static func qr(_ symbol: QRSymbol, moduleSize: Int) -> String {
        matrix(symbol.matrix, moduleSize: moduleSize)
    }

    /// Any symbol in SVG, drawn as ``MatrixRaster`` draws it: one user unit is one pixel of the PNG at the
    /// same style. `text` is printed under a linear symbol when `style.showsText` is set.
    public static func matrix(_ matrix: ModuleMatrix, style: BarcodeStyle, text: String? = nil) -> String {
        guard matrix.isLinear else { return self.matrix(matrix, moduleSize: style.narrowBarWidth) }
        let unit = style.narrowBarWidth
        let row = matrix.pixelRow(moduleWidth: unit)
        var path = ""
        var x = 0
        while x < row.count {
            guard row[x] else {
                x += 1
                continue
            }
            var end = x
            while end < row.count, row[end] { end += 1 }
            path += "M\(x) 0h\(end - x)v\(style.barPixels)h-\(end - x)z"
            x = end
        }
        let drawsText = style.showsText && text != nil
        if drawsText, let text {
            let left = (row.count - BitmapFont.width(of: text) * unit) / 2
            let top = style.barPixels + style.textMargin
            for pixel in BitmapFont.darkPixels(of: text) {
                path += "M\(left + pixel.x * unit) \(top + pixel.y * unit)h\(unit)v\(unit)h-\(unit)z"
            }
        }
        let height = style.barPixels + (drawsText ? style.textBandPixels : 0)
        return document(width: Double(row.count), height: Double(height), path: path)
    }

    /// A 2D symbol in SVG with its quiet zone, `moduleSize` user units per module.
    public static func matrix(_ matrix: ModuleMatrix, moduleSize: Int) -> String {
        let size = Double(moduleSize)
        var path = ""
        for run in matrix.darkRuns {
            let width = number(Double(run.width) * size)
            path +=
                "M\(number(Double(run.column) * size)) \(number(Double(run.moduleRow) * size))"
                + "h\(width)v\(number(Double(run.height) * size))h-\(width)z"
        }
        return document(
            width: Double(matrix.totalColumns) * size, height: Double(matrix.totalModuleRows) * size,
            path: path)
    }

    private static func document(width: Double, height: Double, path: String) -> String {
        let w = number(width)
        let h = number(height)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(w)" height="\(h)" \
            viewBox="0 0 \(w) \(h)" shape-rendering="crispEdges">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <path fill="#000000" d="\(path)"/>
            </svg>

            """
    }

    /// Shortest exact decimal form: `12`, `7.5`; never exponent notation.
    private static func number(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        let scaled = (value * 1000).rounded() / 1000
        var text = String(scaled)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

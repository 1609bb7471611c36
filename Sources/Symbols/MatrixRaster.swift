import Imaging

/// Draws a ``ModuleMatrix`` as a two-colour image at whole pixels per module, quiet zone included.
///
/// A linear symbol is drawn by the same code as Codabar (``CodabarRaster/bars(_:height:imageHeight:)``):
/// one row of modules `style.barHeight` modules tall, with the optional text line underneath. A 2D symbol
/// is square modules of `style.narrowBarWidth` pixels (QR's companion code draws the same way).
public enum MatrixRaster {
    /// The symbol as pixels. `text` is printed under a linear symbol when `style.showsText` is set.
    public static func image(of matrix: ModuleMatrix, style: BarcodeStyle, text: String? = nil) -> BitImage {
        let scale = style.narrowBarWidth
        guard matrix.isLinear else { return image(of: matrix, moduleSize: scale) }
        let row = matrix.pixelRow(moduleWidth: scale)
        let drawsText = style.showsText && text != nil
        let imageHeight = style.barPixels + (drawsText ? style.textBandPixels : 0)
        var image = CodabarRaster.bars(row, height: style.barPixels, imageHeight: imageHeight)
        if drawsText, let text {
            let left = (image.width - BitmapFont.width(of: text) * scale) / 2
            BitmapFont.draw(text, into: &image, x: left, y: style.barPixels + style.textMargin, scale: scale)
        }
        return image
    }

    /// A 2D symbol (or a linear one, one module tall) with its quiet zone, `moduleSize` pixels per module.
    public static func image(of matrix: ModuleMatrix, moduleSize: Int) -> BitImage {
        var image = BitImage(
            width: matrix.totalColumns * moduleSize, height: matrix.totalModuleRows * moduleSize)
        for run in matrix.darkRuns {
            image.fill(
                x: run.column * moduleSize, y: run.moduleRow * moduleSize, width: run.width * moduleSize,
                height: run.height * moduleSize)
        }
        return image
    }
}

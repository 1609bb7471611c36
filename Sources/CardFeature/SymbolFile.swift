import Codabar
import GymcardCore
import Imaging
import Symbologies
import Symbols

/// The image files a symbol is written as: `show --png/--svg/--qr` and `render --batch` (the CLI writes
/// them where the person said).
public enum SymbolFile: String, CaseIterable, Sendable {
    /// The barcode as a PNG.
    case png
    /// The barcode as an SVG.
    case svg
    /// The companion QR code (the card's text in a QR symbol) as a PNG.
    case qr

    /// The file's bytes for `content` drawn in `style`: Codabar in the style's layout, any other symbology
    /// at `style.narrowBarWidth` pixels per module (the QR's modules are two narrow bars wide).
    public func bytes(of content: BarcodeContent, style: BarcodeStyle) throws(SymbolFileProblem) -> [UInt8] {
        if self == .qr {
            return try Self.encodePNG(
                try Self.qrSymbol(for: content.text).image(moduleSize: 2 * style.narrowBarWidth))
        }
        switch try CardDrawing(content) {
        case .codabar(let symbol): return try bytes(of: symbol, style: style)
        case .matrix(let matrix):
            if self == .svg {
                return Array(SVGDocument.matrix(matrix, style: style, text: content.text).utf8)
            }
            return try Self.encodePNG(MatrixRaster.image(of: matrix, style: style, text: content.text))
        }
    }

    /// The file's bytes for a Codabar `symbol` drawn in `style`.
    public func bytes(of symbol: CodabarSymbol, style: BarcodeStyle) throws(SymbolFileProblem) -> [UInt8] {
        switch self {
        case .png: return try Self.encodePNG(CodabarRaster.image(of: symbol, style: style))
        case .svg: return Array(SVGDocument.codabar(symbol, style: style).utf8)
        case .qr:
            return try Self.encodePNG(
                try Self.qrSymbol(for: symbol.text).image(moduleSize: 2 * style.narrowBarWidth))
        }
    }

    /// The companion QR code of a card's text (a Codabar card's with its start/stop letters).
    public static func qrSymbol(for text: String) throws(SymbolFileProblem) -> QRSymbol {
        do { return try QRSymbol(encoding: text) } catch { throw .cannotDraw(error.description) }
    }

    private static func encodePNG(_ image: BitImage) throws(SymbolFileProblem) -> [UInt8] {
        // An image gymcard scan would refuse is not written (--scale 32 --height 1000: 32000 px tall).
        guard max(image.width, image.height) <= ImageLimits.maximumSide else {
            throw .tooLarge(width: image.width, height: image.height)
        }
        do { return try PNGCodec.encode(image) } catch { throw .cannotEncode(error.description) }
    }
}

/// Why a symbol's file was not written.
public enum SymbolFileProblem: Error, CustomStringConvertible {
    /// The symbol cannot be drawn this way (an ID too long for a QR code).
    case cannotDraw(String)
    /// The library that draws the symbology (libzint) is not installed.
    case drawerMissing(String)
    /// The image could not be encoded.
    case cannotEncode(String)
    /// The image would be larger than gymcard (and many viewers) read; `width` is `nil` when only the
    /// bars' height is known yet (checked from the options, before the card is opened).
    case tooLarge(width: Int?, height: Int)

    /// What happened.
    public var description: String {
        switch self {
        case .cannotDraw(let reason), .cannotEncode(let reason), .drawerMissing(let reason): reason
        case .tooLarge(let width, let height):
            "the image would be \(width.map { "\($0)×\(height) pixels" } ?? "\(height) pixels tall"), more than the \(ImageLimits.maximumSide) px per side "
                + "gymcard scan and many viewers read"
        }
    }
}

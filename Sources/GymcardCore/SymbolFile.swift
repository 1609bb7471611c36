import Codabar
import Glibc
import Imaging
import Storage
import Symbols

/// The image files a symbol is written as: `show --png/--svg/--qr` and `render --batch`.
public enum SymbolFile: String, CaseIterable, Sendable {
    /// The Codabar as a PNG.
    case png
    /// The Codabar as an SVG.
    case svg
    /// The companion QR code (the ID in a QR symbol) as a PNG.
    case qr

    /// The file's bytes for `symbol` drawn in `style` (the QR's modules are two narrow bars wide).
    public func bytes(of symbol: CodabarSymbol, style: BarcodeStyle) throws(SymbolFileProblem) -> [UInt8] {
        switch self {
        case .png: return try Self.encodePNG(CodabarRaster.image(of: symbol, style: style))
        case .svg: return Array(SVGDocument.codabar(symbol, style: style).utf8)
        case .qr:
            return try Self.encodePNG(
                try Self.qrSymbol(for: symbol).image(moduleSize: 2 * style.narrowBarWidth))
        }
    }

    /// Writes `symbol` in this format to `path`, a path the person named (`-`: standard output), as
    /// Storage's `UserFile` writes it: a device or FIFO in place, a file complete or not at all.
    public func write(_ symbol: CodabarSymbol, style: BarcodeStyle, to path: String) throws(SymbolFileProblem)
    {
        try Self.write(try bytes(of: symbol, style: style), to: path)
    }

    /// Writes `bytes` to a path the person named; `-` is standard output.
    public static func write(_ bytes: [UInt8], to path: String) throws(SymbolFileProblem) {
        do {
            if path == "-" {
                try AtomicFile.writeAll(bytes, to: STDOUT_FILENO, path: "standard output")
            } else {
                try UserFile.write(bytes, to: path)
            }
        } catch { throw .cannotWrite(error, standardOutput: path == "-") }
    }

    /// The companion QR code of `symbol`: its normalized text.
    public static func qrSymbol(for symbol: CodabarSymbol) throws(SymbolFileProblem) -> QRSymbol {
        do { return try QRSymbol(encoding: symbol.text) } catch { throw .cannotDraw(error.description) }
    }

    private static func encodePNG(_ image: BitImage) throws(SymbolFileProblem) -> [UInt8] {
        do { return try PNGCodec.encode(image) } catch { throw .cannotEncode(error.description) }
    }
}

/// Why a symbol's file was not written.
public enum SymbolFileProblem: Error, CustomStringConvertible {
    /// The symbol cannot be drawn this way (an ID too long for a QR code).
    case cannotDraw(String)
    /// The image could not be encoded.
    case cannotEncode(String)
    /// Writing failed; `standardOutput`: the path was `-`.
    case cannotWrite(StorageError, standardOutput: Bool)

    /// What happened.
    public var description: String {
        switch self {
        case .cannotDraw(let reason), .cannotEncode(let reason): reason
        case .cannotWrite(let error, true): "could not write to standard output: \(error.description)"
        case .cannotWrite(let error, false): "cannot write \(error.description)"
        }
    }
}

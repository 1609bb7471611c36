import CQREncode
import Imaging
import Symbologies

/// A QR symbol made by libqrencode: the companion code of a member ID, for readers that prefer QR.
public struct QRSymbol: Sendable, Equatable {
    /// Modules per side, quiet zone excluded.
    public let size: Int
    private let modules: [Bool]

    /// The four-module light margin ISO/IEC 18004 requires around the symbol.
    public static let quietZoneModules = 4

    /// Encodes `text` at error-correction level M, in the smallest version that fits.
    ///
    /// Codabar's whole alphabet (`0-9 A-D - $ : / . +`) lies in QR's alphanumeric set, so an ID encodes
    /// compactly; libqrencode picks the modes itself.
    public init(encoding text: String) throws(SymbolError) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw .qrEncodingFailed
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // libqrencode: bit 0 of each byte is the module colour (1 = dark); the other bits are metadata.
        let bytes = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        modules = bytes.map { $0 & 1 == 1 }
    }

    /// Whether the module at a column and row (quiet zone excluded) is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The symbol as a module matrix with its quiet zone, for the drawing code all symbols share.
    public var matrix: ModuleMatrix {
        ModuleMatrix(
            symbology: .qr, columns: size, rowHeights: Array(repeating: 1, count: size),
            quietZone: ModuleMatrix.QuietZone(
                left: Self.quietZoneModules, right: Self.quietZoneModules, vertical: Self.quietZoneModules),
            modules: modules)
    }

    /// The symbol with its quiet zone, `moduleSize` pixels per module.
    public func image(moduleSize: Int) -> BitImage { MatrixRaster.image(of: matrix, moduleSize: moduleSize) }
}

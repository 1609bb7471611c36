import CQREncode
import Imaging

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

    /// The symbol with its quiet zone, `moduleSize` pixels per module.
    public func image(moduleSize: Int) -> BitImage {
        let quiet = Self.quietZoneModules
        let side = (size + 2 * quiet) * moduleSize
        var image = BitImage(width: side, height: side)
        for y in 0..<size {
            for x in 0..<size where isDark(x: x, y: y) {
                image.fill(
                    x: (x + quiet) * moduleSize, y: (y + quiet) * moduleSize, width: moduleSize,
                    height: moduleSize)
            }
        }
        return image
    }
}

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
    /// compactly; libqrencode picks the modes itself. A text beyond ASCII goes as UTF-8 bytes after ECI 26,
    /// without which readers guess its charset (`Käseschnitte` read as `K瓣seschnitte` in zbarimg 0.23.92;
    /// ARCHITECTURE §13, "Text encoding").
    public init(encoding text: String) throws(SymbolError) {
        let made =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) : Self.encodeUTF8(text)
        guard let code = made else { throw .qrEncodingFailed }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // libqrencode: bit 0 of each byte is the module colour (1 = dark); the other bits are metadata.
        let bytes = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        modules = bytes.map { $0 & 1 == 1 }
    }

    /// The whole text in 8-bit mode after an ECI 26 header (libqrencode's `QRinput_appendECIheader`).
    private static func encodeUTF8(_ text: String) -> UnsafeMutablePointer<QRcode>? {
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { return nil }
        defer { QRinput_free(input) }
        let bytes = Array(text.utf8)
        guard QRinput_appendECIheader(input, 26) == 0,
            bytes.withUnsafeBufferPointer({
                QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress)
            })
                == 0
        else { return nil }
        return QRcode_encodeInput(input)
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

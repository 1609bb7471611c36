import CZBar
import Imaging

/// libzbar behind a Swift value: grey image in, decoded symbols out. Nothing of zbar leaks above this file.
///
/// Only Codabar and QR are enabled: every other symbology zbar knows is a chance of a false positive on a
/// photo and costs time.
public struct ZBarReader: Sendable {
    /// Shortest Codabar accepted, start and stop included. zbar's default is 4 (`A1B` needs 3).
    public var codabarMinimumLength: Int
    /// When set, zbar accepts only Codabar whose mod-16 check character holds (`codabar.add-check`).
    public var requiresCodabarCheckCharacter: Bool

    /// A reader; the defaults are zbar's own.
    public init(codabarMinimumLength: Int = 4, requiresCodabarCheckCharacter: Bool = false) {
        self.codabarMinimumLength = codabarMinimumLength
        self.requiresCodabarCheckCharacter = requiresCodabarCheckCharacter
    }

    /// Every Codabar and QR symbol zbar finds in the image, best first.
    public func decode(_ image: GrayImage) -> [DecodedSymbol] {
        guard image.width > 1, image.height > 1, let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        configure(scanner)
        guard let zbarImage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zbarImage) }
        zbar_image_set_format(zbarImage, gymcard_zbar_format_y800())
        zbar_image_set_size(zbarImage, UInt32(image.width), UInt32(image.height))
        // zbar keeps the pointer without copying: the pixels must stay alive until zbar_scan_image returns,
        // and the results are read inside the same scope.
        return image.pixels.withUnsafeBytes { buffer -> [DecodedSymbol] in
            zbar_image_set_data(zbarImage, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, zbarImage) > 0 else { return [] }
            var found: [DecodedSymbol] = []
            var symbol = zbar_image_first_symbol(zbarImage)
            while let current = symbol {
                if let symbology = Self.symbology(zbar_symbol_get_type(current)),
                    let data = zbar_symbol_get_data(current)
                {
                    let text = String(cString: data)
                    found.append(
                        DecodedSymbol(
                            symbology: symbology, text: text, quality: Int(zbar_symbol_get_quality(current))))
                }
                symbol = zbar_symbol_next(current)
            }
            zbar_image_set_data(zbarImage, nil, 0, nil)
            return found.sorted { $0.quality > $1.quality }
        }
    }

    private func configure(_ scanner: OpaquePointer) {
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_ENABLE, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_MIN_LEN, Int32(codabarMinimumLength))
        if requiresCodabarCheckCharacter {
            zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_ADD_CHECK, 1)
            zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_EMIT_CHECK, 1)
        }
    }

    private static func symbology(_ type: zbar_symbol_type_t) -> Symbology? {
        switch type {
        case ZBAR_CODABAR: return .codabar
        case ZBAR_QRCODE: return .qrCode
        default: return nil
        }
    }
}

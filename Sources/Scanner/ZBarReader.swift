import CZBar
import DynamicLoading
import Imaging
import Symbologies

/// libzbar behind a Swift value: grey image in, decoded symbols out. Nothing of zbar leaks above this file.
///
/// The symbologies a card carries are enabled (``readSymbologies``); ISBN, DataBar and zbar's incomplete
/// PDF417 stay off: each is a chance of a false positive on a photo and costs time.
public struct ZBarReader: Sendable {
    /// Shortest Codabar accepted, start and stop included. zbar's default is 4 (`A1B` needs 3).
    public var codabarMinimumLength: Int
    /// When set, zbar accepts only Codabar whose mod-16 check character holds (`codabar.add-check`).
    public var requiresCodabarCheckCharacter: Bool

    /// Shortest Interleaved 2 of 5 accepted, in digits. zbar's default is 6: shorter ones turn up in the
    /// modules of a QR code and between a Codabar card's bars, so only the cascade's own short-ITF stage
    /// asks for fewer.
    public var interleaved2of5MinimumLength: Int
    /// The symbologies read (default ``readSymbologies``).
    public var symbologies: [Symbology]

    /// A reader; the defaults are zbar's own.
    public init(
        codabarMinimumLength: Int = 4, requiresCodabarCheckCharacter: Bool = false,
        interleaved2of5MinimumLength: Int = 6, symbologies: [Symbology] = ZBarReader.readSymbologies
    ) {
        self.codabarMinimumLength = codabarMinimumLength
        self.requiresCodabarCheckCharacter = requiresCodabarCheckCharacter
        self.interleaved2of5MinimumLength = interleaved2of5MinimumLength
        self.symbologies = symbologies
    }

    /// Interleaved 2 of 5 alone, from the 2 digits of the shortest symbol gymcard draws.
    public static let shortInterleaved2of5 = ZBarReader(
        interleaved2of5MinimumLength: 2, symbologies: [.itf])

    /// Whether libzbar could be loaded (it is a runtime dependency).
    public static var isAvailable: Bool { loadingError == nil }

    /// Why libzbar cannot be used, or `nil` when it loads.
    public static var loadingError: LoadingError? {
        if case .failure(let error) = ZBarLibrary.functions { error } else { nil }
    }

    /// The symbologies libzbar is asked to read: every card symbology it decodes (PDF417, Data Matrix and
    /// Aztec are the second engine's).
    public static let readSymbologies = Symbology.allCases.filter { zbarType($0) != nil }

    /// Every card symbol zbar finds in the image, best first. Empty when libzbar is missing.
    public func decode(_ image: GrayImage) -> [DecodedSymbol] {
        guard image.width > 1, image.height > 1, let zbar = try? ZBarLibrary.functions.get(),
            let scanner = zbar.zbar_image_scanner_create()
        else { return [] }
        defer { zbar.zbar_image_scanner_destroy(scanner) }
        configure(scanner, zbar)
        guard let zbarImage = zbar.zbar_image_create() else { return [] }
        defer { zbar.zbar_image_destroy(zbarImage) }
        zbar.zbar_image_set_format(zbarImage, gymcard_zbar_format_y800())
        zbar.zbar_image_set_size(zbarImage, UInt32(image.width), UInt32(image.height))
        // zbar keeps the pointer without copying: the pixels must stay alive until zbar_scan_image returns,
        // and the results are read inside the same scope.
        return image.pixels.withUnsafeBytes { buffer -> [DecodedSymbol] in
            zbar.zbar_image_set_data(zbarImage, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar.zbar_scan_image(scanner, zbarImage) > 0 else { return [] }
            var found: [DecodedSymbol] = []
            var symbol = zbar.zbar_image_first_symbol(zbarImage)
            while let current = symbol {
                if let symbology = Self.symbology(zbar.zbar_symbol_get_type(current)),
                    let data = zbar.zbar_symbol_get_data(current)
                {
                    // A QR code's bytes as stored, or converted to UTF-8 where it names an ECI (zbar's
                    // binary mode guesses no character set; without it zbar took Latin-1 bytes for Shift
                    // JIS); a NUL inside stays in the text, where it makes no ID.
                    let length = Int(zbar.zbar_symbol_get_data_length(current))
                    let bytes = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                        Array(UnsafeBufferPointer(start: $0, count: length))
                    }
                    let text =
                        symbology == .qr
                        ? SymbolText.withoutECI(bytes) : String(decoding: bytes, as: UTF8.self)
                    let ends = (0..<zbar.zbar_symbol_get_loc_size(current)).map { index in
                        ImagePoint(
                            x: Int(zbar.zbar_symbol_get_loc_x(current, index)),
                            y: Int(zbar.zbar_symbol_get_loc_y(current, index)))
                    }
                    found.append(
                        DecodedSymbol(
                            symbology: symbology, text: text,
                            quality: Int(zbar.zbar_symbol_get_quality(current)),
                            lineEnds: ends))
                }
                symbol = zbar.zbar_symbol_next(current)
            }
            zbar.zbar_image_set_data(zbarImage, nil, 0, nil)
            return found.sorted { $0.quality > $1.quality }
        }
    }

    private func configure(_ scanner: OpaquePointer, _ zbar: gymcard_zbar_functions) {
        _ = zbar.zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in symbologies {
            if let type = Self.zbarType(symbology) {
                _ = zbar.zbar_image_scanner_set_config(scanner, type, ZBAR_CFG_ENABLE, 1)
            }
        }
        _ = zbar.zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        _ = zbar.zbar_image_scanner_set_config(
            scanner, ZBAR_I25, ZBAR_CFG_MIN_LEN, Int32(interleaved2of5MinimumLength))
        _ = zbar.zbar_image_scanner_set_config(
            scanner, ZBAR_CODABAR, ZBAR_CFG_MIN_LEN, Int32(codabarMinimumLength))
        if requiresCodabarCheckCharacter {
            _ = zbar.zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_ADD_CHECK, 1)
            _ = zbar.zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_EMIT_CHECK, 1)
        }
    }

    /// The symbology of a zbar symbol type, the one place the two meet.
    private static func symbology(_ type: zbar_symbol_type_t) -> Symbology? {
        Symbology.allCases.first { zbarType($0) == type }
    }

    /// zbar's symbol type for a symbology, or `nil` for those it cannot read. With UPC-A and UPC-E enabled
    /// zbar reports them as such, not as the EAN-13 they are a part of (a UPC-A with a leading 0).
    private static func zbarType(_ symbology: Symbology) -> zbar_symbol_type_t? {
        switch symbology {
        case .codabar: return ZBAR_CODABAR
        case .code39: return ZBAR_CODE39
        case .code93: return ZBAR_CODE93
        case .code128: return ZBAR_CODE128
        case .itf: return ZBAR_I25
        case .ean8: return ZBAR_EAN8
        case .ean13: return ZBAR_EAN13
        case .upca: return ZBAR_UPCA
        case .upce: return ZBAR_UPCE
        case .qr: return ZBAR_QRCODE
        case .pdf417, .datamatrix, .aztec: return nil
        }
    }
}

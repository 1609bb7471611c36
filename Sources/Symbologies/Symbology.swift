/// A barcode symbology a card can carry: its names for people, for the command line and for the libraries
/// and apps gymcard meets.
///
/// The command-line names are the raw values. zbar's and zxing-cpp's names are what those decoders report
/// (`zbar_get_symbol_name` in libzbar 0.23.92, `ToString(BarcodeFormat)` in zxing-cpp 1.4.0); Catima's
/// are the ZXing `BarcodeFormat` names it stores in its exports (`CatimaBarcode.java`, whose list has
/// exactly these thirteen).
public enum Symbology: String, Sendable, Hashable, Codable, CaseIterable {
    /// Codabar (NW-7): digits and `- $ : / . +` between start/stop letters A–D.
    case codabar
    /// Code 39: upper-case letters, digits and `space - . $ / + %`.
    case code39
    /// Code 93: all of ASCII (printable characters here).
    case code93
    /// Code 128: all of ASCII (printable characters here).
    case code128
    /// Interleaved 2 of 5: an even number of digits.
    case itf
    /// EAN-8: seven digits and a check digit.
    case ean8
    /// EAN-13: twelve digits and a check digit.
    case ean13
    /// UPC-A: eleven digits and a check digit.
    case upca
    /// UPC-E: number system 0 or 1, six digits and the check digit of the UPC-A it abbreviates.
    case upce
    /// QR Code.
    case qr
    /// PDF417.
    case pdf417
    /// Data Matrix (ECC 200).
    case datamatrix
    /// Aztec Code.
    case aztec

    /// The name on the command line (`--symbology code128`).
    public var name: String { rawValue }

    /// The symbology's name as people write it.
    public var displayName: String {
        switch self {
        case .codabar: return "Codabar"
        case .code39: return "Code 39"
        case .code93: return "Code 93"
        case .code128: return "Code 128"
        case .itf: return "Interleaved 2 of 5"
        case .ean8: return "EAN-8"
        case .ean13: return "EAN-13"
        case .upca: return "UPC-A"
        case .upce: return "UPC-E"
        case .qr: return "QR Code"
        case .pdf417: return "PDF417"
        case .datamatrix: return "Data Matrix"
        case .aztec: return "Aztec Code"
        }
    }

    /// Catima's name for it (ZXing's `BarcodeFormat`), as in a Catima export's `barcodetype` column.
    public var catimaName: String {
        switch self {
        case .codabar: return "CODABAR"
        case .code39: return "CODE_39"
        case .code93: return "CODE_93"
        case .code128: return "CODE_128"
        case .itf: return "ITF"
        case .ean8: return "EAN_8"
        case .ean13: return "EAN_13"
        case .upca: return "UPC_A"
        case .upce: return "UPC_E"
        case .qr: return "QR_CODE"
        case .pdf417: return "PDF_417"
        case .datamatrix: return "DATA_MATRIX"
        case .aztec: return "AZTEC"
        }
    }

    /// libzbar's name for it (`zbar_get_symbol_name`), or `nil` when libzbar 0.23.92 cannot read it (its
    /// PDF417 decoder is incomplete and returns no text; it has no Data Matrix or Aztec decoder).
    ///
    /// zbar reports a UPC-A as an EAN-13 with a leading 0 unless `upca.enable` is set.
    public var zbarName: String? {
        switch self {
        case .codabar: return "Codabar"
        case .code39: return "CODE-39"
        case .code93: return "CODE-93"
        case .code128: return "CODE-128"
        case .itf: return "I2/5"
        case .ean8: return "EAN-8"
        case .ean13: return "EAN-13"
        case .upca: return "UPC-A"
        case .upce: return "UPC-E"
        case .qr: return "QR-Code"
        case .pdf417, .datamatrix, .aztec: return nil
        }
    }

    /// zxing-cpp's name for it (`ToString(BarcodeFormat)` in 1.4.0).
    public var zxingName: String {
        switch self {
        case .codabar: return "Codabar"
        case .code39: return "Code39"
        case .code93: return "Code93"
        case .code128: return "Code128"
        case .itf: return "ITF"
        case .ean8: return "EAN-8"
        case .ean13: return "EAN-13"
        case .upca: return "UPC-A"
        case .upce: return "UPC-E"
        case .qr: return "QRCode"
        case .pdf417: return "PDF417"
        case .datamatrix: return "DataMatrix"
        case .aztec: return "Aztec"
        }
    }

    /// Whether the symbol is a grid of modules (QR, PDF417, Data Matrix, Aztec) rather than one row of bars.
    public var isTwoDimensional: Bool {
        switch self {
        case .qr, .pdf417, .datamatrix, .aztec: return true
        default: return false
        }
    }

    /// The symbology with this command-line name (case-insensitive), or `nil`.
    public init?(name: String) {
        self.init(rawValue: String(name.lowercased()))
    }

    /// The symbology with this Catima name (`CODE_128`), or `nil` for one gymcard does not draw.
    public init?(catimaName: String) {
        guard let found = Self.allCases.first(where: { $0.catimaName == catimaName }) else { return nil }
        self = found
    }

    /// What the symbology accepts, in words, for error messages.
    public var acceptedText: String {
        switch self {
        case .codabar: return "digits and - $ : / . + (A-D only at the ends)"
        case .code39: return "digits, capital letters A-Z, space and - . $ / + %"
        case .code93, .code128: return "printable ASCII characters (space to ~)"
        case .itf: return "digits, an even number of them"
        case .ean8: return "7 digits, or 8 with the check digit"
        case .ean13: return "12 digits, or 13 with the check digit"
        case .upca: return "11 digits, or 12 with the check digit"
        case .upce: return "6 digits, or 7 starting with the number system 0 or 1, or 8 with the check digit"
        case .qr, .pdf417, .datamatrix, .aztec: return "any text without control characters"
        }
    }
}

import CZint
import Codabar
import DynamicLoading
import Symbologies

extension ModuleMatrix {
    /// The symbol for `content`: Codabar by gymcard's own encoder, every other symbology by libzint with
    /// its default options (as the `zint` tool makes it). A linear symbol's ASCII text goes in UTF-8 input
    /// mode; a 2D symbol's goes as the exact bytes of its encoding (`DATA_MODE`, zint's `--binary`) with the
    /// ECI ``BarcodeContent/eciDesignator`` names, so that zint neither converts nor picks a charset of its
    /// own (ARCHITECTURE §13, "Text encoding").
    ///
    /// Throws when libzint is not installed or refuses the text; ``BarcodeContent`` has already refused
    /// what the symbology cannot carry, so the second only happens for a 2D text beyond the symbol's
    /// capacity.
    public init(encoding content: BarcodeContent) throws(SymbolError) {
        guard let type = Self.zintSymbology(content.symbology) else {
            do {
                self.init(codabar: try CodabarSymbol(normalizing: content.text))
            } catch {
                throw .encodingFailed(symbology: content.symbology, reason: error.description)
            }
            return
        }
        let zint: gymcard_zint_functions
        switch ZintLibrary.functions {
        case .success(let functions): zint = functions
        case .failure(let error): throw .zintUnavailable(error)
        }
        guard let symbol = zint.ZBarcode_Create() else {
            throw .encodingFailed(symbology: content.symbology, reason: "libzint is out of memory")
        }
        defer { zint.ZBarcode_Delete(symbol) }
        symbol.pointee.symbology = type
        let bytes: [UInt8]
        if content.symbology.isTwoDimensional {
            symbol.pointee.input_mode = Int32(DATA_MODE)
            symbol.pointee.eci = Int32(content.eciDesignator ?? 0)
            bytes = content.bytes
        } else {
            symbol.pointee.input_mode = Int32(UNICODE_MODE)
            bytes = Array(content.text.utf8)
        }
        let status = bytes.withUnsafeBufferPointer {
            zint.ZBarcode_Encode(symbol, $0.baseAddress, Int32($0.count))
        }
        // Warnings (1 to 4) still make a symbol; errors (5 and up) make none.
        guard status < ZINT_ERROR else {
            let message = withUnsafeBytes(of: symbol.pointee.errtxt) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw .encodingFailed(symbology: content.symbology, reason: "libzint: " + message)
        }
        let columns = Int(symbol.pointee.width)
        let rowCount = Int(symbol.pointee.rows)
        guard columns > 0, rowCount > 0, rowCount <= 200, columns <= 144 * 8 else {
            throw .encodingFailed(symbology: content.symbology, reason: "libzint made an empty symbol")
        }
        // encoded_data[row][column / 8], bit column % 8 (the least significant first), as zint's own
        // module_is_set() reads it.
        var modules: [Bool] = []
        modules.reserveCapacity(columns * rowCount)
        withUnsafeBytes(of: &symbol.pointee.encoded_data) { raw in
            let rowBytes = 144
            for row in 0..<rowCount {
                for column in 0..<columns {
                    modules.append((raw[row * rowBytes + column / 8] >> (column % 8)) & 1 == 1)
                }
            }
        }
        if !content.symbology.isTwoDimensional, rowCount != 1 {
            throw .encodingFailed(symbology: content.symbology, reason: "libzint made \(rowCount) rows")
        }
        var heights = [Int](repeating: 1, count: rowCount)
        if content.symbology.isTwoDimensional {
            // A row_height of 0 means "an equal share of what the fixed rows leave of the symbol's height":
            // PDF417's rows are all 0, and its height is 3 modules a row (ISO/IEC 15438 asks for at least 3).
            let fixed = withUnsafeBytes(of: &symbol.pointee.row_height) { raw in
                Array(raw.bindMemory(to: Float.self).prefix(rowCount))
            }
            let shared = fixed.filter { $0 <= 0 }.count
            let left = Double(symbol.pointee.height) - fixed.reduce(0) { $0 + Double(max(0, $1)) }
            let share = shared > 0 ? max(1, Int((left / Double(shared)).rounded())) : 1
            heights = fixed.map { $0 > 0 ? max(1, Int(Double($0).rounded())) : share }
        }
        self.init(
            symbology: content.symbology, columns: columns, rowHeights: heights,
            quietZone: Self.standardQuietZone(of: content.symbology), modules: modules)
    }

    /// Whether libzint could be loaded (a runtime dependency for symbologies other than Codabar).
    public static var isZintAvailable: Bool { zintLoadingError == nil }

    /// Why libzint cannot be bound, or `nil`.
    public static var zintLoadingError: LoadingError? { ZintLibrary.functions.loadingError }

    /// Why libzint cannot be used, or `nil` when it loads.
    public static var zintProblem: SymbolError? {
        if case .failure(let error) = ZintLibrary.functions { .zintUnavailable(error) } else { nil }
    }

    /// libzint's `BARCODE_*` for a symbology; `nil` for Codabar, which gymcard draws itself. The EAN/UPC
    /// types are the `_CHK` ones: the text always carries its check digit, which zint then verifies.
    static func zintSymbology(_ symbology: Symbology) -> Int32? {
        switch symbology {
        case .codabar: return nil
        case .code39: return BARCODE_CODE39
        case .code93: return BARCODE_CODE93
        case .code128: return BARCODE_CODE128
        case .itf: return BARCODE_C25INTER
        case .ean8, .ean13: return BARCODE_EANX_CHK
        case .upca: return BARCODE_UPCA_CHK
        case .upce: return BARCODE_UPCE_CHK
        case .qr: return BARCODE_QRCODE
        case .pdf417: return BARCODE_PDF417
        case .datamatrix: return BARCODE_DATAMATRIX
        case .aztec: return BARCODE_AZTEC
        }
    }
}

import CZBar
import Glibc

/// libzbar, loaded on first use with `dlopen` instead of linked: linking it makes every gymcard process
/// load its dependencies (X11, D-Bus, systemd, libgcrypt, v4l) and run their initialisers — 1.2 ms on
/// this machine, measured with two otherwise empty programs — although only `scan` needs it.
/// The types and constants still come from the CZBar system-library target (zbar.h).
struct ZBarLibrary: @unchecked Sendable {
    typealias ScannerCreate = @convention(c) () -> OpaquePointer?
    typealias ScannerDestroy = @convention(c) (OpaquePointer?) -> Void
    typealias ScannerSetConfig =
        @convention(c) (OpaquePointer?, zbar_symbol_type_t, zbar_config_t, Int32) -> Int32
    typealias ImageCreate = @convention(c) () -> OpaquePointer?
    typealias ImageDestroy = @convention(c) (OpaquePointer?) -> Void
    typealias ImageSetFormat = @convention(c) (OpaquePointer?, UInt) -> Void
    typealias ImageSetSize = @convention(c) (OpaquePointer?, UInt32, UInt32) -> Void
    typealias ImageSetData = @convention(c) (OpaquePointer?, UnsafeRawPointer?, UInt, OpaquePointer?) -> Void
    typealias ScanImage = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias FirstSymbol = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SymbolType = @convention(c) (OpaquePointer?) -> zbar_symbol_type_t
    typealias SymbolData = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias SymbolDataLength = @convention(c) (OpaquePointer?) -> UInt32
    typealias SymbolQuality = @convention(c) (OpaquePointer?) -> Int32
    typealias SymbolNext = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SymbolLocationSize = @convention(c) (OpaquePointer?) -> UInt32
    typealias SymbolLocationCoordinate = @convention(c) (OpaquePointer?, UInt32) -> Int32

    let scannerCreate: ScannerCreate
    let scannerDestroy: ScannerDestroy
    let scannerSetConfig: ScannerSetConfig
    let imageCreate: ImageCreate
    let imageDestroy: ImageDestroy
    let imageSetFormat: ImageSetFormat
    let imageSetSize: ImageSetSize
    let imageSetData: ImageSetData
    let scanImage: ScanImage
    let firstSymbol: FirstSymbol
    let symbolType: SymbolType
    let symbolData: SymbolData
    let symbolDataLength: SymbolDataLength
    let symbolQuality: SymbolQuality
    let symbolNext: SymbolNext
    let symbolLocationSize: SymbolLocationSize
    let symbolLocationX: SymbolLocationCoordinate
    let symbolLocationY: SymbolLocationCoordinate

    /// The library, loaded once per process; `nil` when libzbar is not installed.
    static let shared: ZBarLibrary? = ZBarLibrary()

    private init?() {
        guard let handle = dlopen("libzbar.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func load<Function>(_ name: String, as _: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
        }
        guard let scannerCreate = load("zbar_image_scanner_create", as: ScannerCreate.self),
            let scannerDestroy = load("zbar_image_scanner_destroy", as: ScannerDestroy.self),
            let scannerSetConfig = load("zbar_image_scanner_set_config", as: ScannerSetConfig.self),
            let imageCreate = load("zbar_image_create", as: ImageCreate.self),
            let imageDestroy = load("zbar_image_destroy", as: ImageDestroy.self),
            let imageSetFormat = load("zbar_image_set_format", as: ImageSetFormat.self),
            let imageSetSize = load("zbar_image_set_size", as: ImageSetSize.self),
            let imageSetData = load("zbar_image_set_data", as: ImageSetData.self),
            let scanImage = load("zbar_scan_image", as: ScanImage.self),
            let firstSymbol = load("zbar_image_first_symbol", as: FirstSymbol.self),
            let symbolType = load("zbar_symbol_get_type", as: SymbolType.self),
            let symbolData = load("zbar_symbol_get_data", as: SymbolData.self),
            let symbolDataLength = load("zbar_symbol_get_data_length", as: SymbolDataLength.self),
            let symbolQuality = load("zbar_symbol_get_quality", as: SymbolQuality.self),
            let symbolNext = load("zbar_symbol_next", as: SymbolNext.self),
            let symbolLocationSize = load("zbar_symbol_get_loc_size", as: SymbolLocationSize.self),
            let symbolLocationX = load("zbar_symbol_get_loc_x", as: SymbolLocationCoordinate.self),
            let symbolLocationY = load("zbar_symbol_get_loc_y", as: SymbolLocationCoordinate.self)
        else { return nil }
        self.scannerCreate = scannerCreate
        self.scannerDestroy = scannerDestroy
        self.scannerSetConfig = scannerSetConfig
        self.imageCreate = imageCreate
        self.imageDestroy = imageDestroy
        self.imageSetFormat = imageSetFormat
        self.imageSetSize = imageSetSize
        self.imageSetData = imageSetData
        self.scanImage = scanImage
        self.firstSymbol = firstSymbol
        self.symbolType = symbolType
        self.symbolData = symbolData
        self.symbolDataLength = symbolDataLength
        self.symbolQuality = symbolQuality
        self.symbolNext = symbolNext
        self.symbolLocationSize = symbolLocationSize
        self.symbolLocationX = symbolLocationX
        self.symbolLocationY = symbolLocationY
    }
}

import CZint
import Glibc

/// libzint, loaded on first use with `dlopen` instead of linked, so that only a card in another symbology
/// than Codabar pays for it: `show` of a Codabar card never maps the library. The struct layout and the
/// constants come from zint.h (the CZint system-library target).
struct ZintLibrary: @unchecked Sendable {
    typealias Create = @convention(c) () -> UnsafeMutablePointer<zint_symbol>?
    typealias Delete = @convention(c) (UnsafeMutablePointer<zint_symbol>?) -> Void
    typealias Encode =
        @convention(c) (UnsafeMutablePointer<zint_symbol>?, UnsafePointer<UInt8>?, Int32) -> Int32
    typealias Version = @convention(c) () -> Int32

    let create: Create
    let delete: Delete
    let encode: Encode
    let version: Version

    /// The file name Debian's libzint2.11 installs (in /usr/lib, which the loader searches).
    static let fileName = "libzint.so.2.11"

    /// The library, loaded once per process; `nil` when libzint is not installed.
    static let shared: ZintLibrary? = ZintLibrary()

    private init?() {
        guard let handle = dlopen(Self.fileName, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func load<Function>(_ name: String, as _: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
        }
        guard let create = load("ZBarcode_Create", as: Create.self),
            let delete = load("ZBarcode_Delete", as: Delete.self),
            let encode = load("ZBarcode_Encode", as: Encode.self),
            let version = load("ZBarcode_Version", as: Version.self)
        else { return nil }
        self.create = create
        self.delete = delete
        self.encode = encode
        self.version = version
    }
}

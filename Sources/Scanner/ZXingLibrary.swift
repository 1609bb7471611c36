import CZXing
import Glibc

/// The zxing-cpp shim (`libGymcardZXing.so`, built from Sources/GymcardZXing), loaded with `dlopen` the
/// first time a photo needs it, like libzbar and libheif.
///
/// Debian's zxing-cpp 1.4.0 has only a C++ API, so a small C++ library calls it and offers C functions.
/// That library is not linked into gymcard: libZXing.so.2 and the C++ runtime would then be loaded by
/// every gymcard process, the status bars' included, although only a photo libzbar cannot read needs
/// them. Looking up zxing-cpp's own C++ functions by their mangled names was the other way, and a fragile
/// one: `ReadBarcodes` returns a `std::vector` of `Result`s whose layout Swift would have to copy.
///
/// The shim is looked for beside the running executable (the build folder) and in `../lib/gymcard`
/// from it (where scripts/install puts it). When it is missing, or when libZXing.so.2 is not installed
/// (its `dlopen` fails on the missing dependency), gymcard reads with libzbar alone.
struct ZXingLibrary: @unchecked Sendable {
    typealias Read =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, Int32, Int32, Int32, Int32, Int32,
            UnsafeMutablePointer<gymcard_zxing_result>?, Int32
        ) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?

    /// The file name of the shim.
    static let fileName = "libGymcardZXing.so"

    let read: Read
    /// The zxing-cpp version the shim was built against.
    let version: String

    /// The shim, loaded once per process; `nil` when it or libZXing is not installed.
    static let shared: ZXingLibrary? = candidatePaths().lazy.compactMap(ZXingLibrary.init(path:)).first

    private init?(path: String) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return nil }
        guard let read = dlsym(handle, "gymcard_zxing_read").map({ unsafeBitCast($0, to: Read.self) }),
            let version = dlsym(handle, "gymcard_zxing_version").map({ unsafeBitCast($0, to: Version.self) }),
            let versionText = version()
        else {
            dlclose(handle)
            return nil
        }
        self.read = read
        self.version = String(cString: versionText)
    }

    /// Where the shim may be: beside the executable, then in the installed layout's library folder.
    static func candidatePaths() -> [String] {
        guard let folder = executableFolder() else { return [] }
        return [folder + fileName, folder + "../lib/gymcard/" + fileName]
    }

    /// The folder of the running executable, with a trailing slash.
    private static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return String(executable[...slash])
    }
}

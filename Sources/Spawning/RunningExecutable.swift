import Glibc

/// The running executable's own file (`/proc/self/exe`): where gymcard finds the programs installed beside
/// it (gymcard-network, gymcard-zxing, the gymcard a timer runs).
public enum RunningExecutable {
    /// Its absolute path; nil where `/proc` is not mounted.
    public static var path: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Its folder, with a trailing slash.
    public static var folder: String? {
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[...slash])
    }
}

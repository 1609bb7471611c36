/// A C library gymcard loads on first use: the one place that names its file and its Debian package
/// (docs/ARCHITECTURE.md §17). Error messages and `doctor` take the package from here.
public struct SystemLibrary: Sendable, Hashable {
    /// Its name, as `doctor` shows it.
    public var name: String
    /// The file `dlopen` opens (the soname of the version gymcard was built against).
    public var soname: String
    /// The Debian package that installs that file.
    public var debianPackage: String
    /// What gymcard does with it, to follow "needed for".
    public var purpose: String

    /// A library: its name, soname, Debian package and purpose.
    public init(_ name: String, _ soname: String, _ debianPackage: String, _ purpose: String) {
        (self.name, self.soname, self.debianPackage, self.purpose) = (name, soname, debianPackage, purpose)
    }

    /// The command that installs it (`doctor`'s advice).
    public var installCommand: String { "apt install \(debianPackage)" }

    /// How every message about it missing ends: what to do.
    public var installAdvice: String { "install it (Debian: \(installCommand))" }

    // One entry per library (docs/ARCHITECTURE.md §17: why each is opened with dlopen, when).

    /// libzbar, the first barcode reader.
    public static let zbar = Self("libzbar", "libzbar.so.0", "libzbar0", "reading barcodes (scan)")
    /// libcrypto of OpenSSL 3: scrypt, HMAC-SHA-256 and ChaCha20-Poly1305 for the age file.
    public static let libcrypto = Self(
        "libcrypto", "libcrypto.so.3", "libssl3", "cards with a passphrase: OpenSSL 3")
    /// zxing-cpp, the second reader: linked by the `gymcard-zxing` helper (§14), so it has no table.
    public static let zxing = Self("zxing", "libZXing.so.2", "libzxing2", "scan's second reader: zxing-cpp")
    /// libdmtx 0.7, the Data Matrix decoder behind zxing-cpp's looks (§14).
    public static let dmtx = Self(
        "libdmtx", "libdmtx.so.0", "libdmtx0b", "Data Matrix codes zxing-cpp misses (scan)")
    /// libheif, for iPhone photos.
    public static let heif = Self("libheif", "libheif.so.1", "libheif1", "HEIC and AVIF photos (scan)")
    /// libwebp, for what browsers save.
    public static let webp = Self("libwebp", "libwebp.so.7", "libwebp7", "WebP images (scan)")
    /// libtiff 4.5 or later (for its per-file error handlers), for what scanners save.
    public static let tiff = Self("libtiff", "libtiff.so.6", "libtiff6", "TIFF images (scan)")
    /// libzint 2.11, the encoder of every symbology but Codabar (in /usr/lib, which the loader searches).
    public static let zint = Self(
        "libzint", "libzint.so.2.11", "libzint2.11", "cards in symbologies other than Codabar")
    /// libzip, for Catima's export zips (AES-encrypted entries included).
    public static let zip = Self("libzip", "libzip.so.4", "libzip4", "Catima's export zips")
    /// libsqlite3, for the occupancy history.
    public static let sqlite = Self(
        "libsqlite3", "libsqlite3.so.0", "libsqlite3-0",
        "the occupancy history: history, trends, best, collect")
    /// libsystemd's D-Bus client (sd-bus), for logind's SetBrightness (the backlight guardian).
    public static let systemdBus = Self(
        "libsystemd", "libsystemd.so.0", "libsystemd0", "the backlight guardian's brightness through logind")
    /// elogind's copy of sd-bus, the same API, tried when ``systemdBus`` does not load (a system that runs
    /// elogind instead of systemd; the two packages conflict, so no machine has both).
    public static let elogindBus = Self(
        "libelogind", "libelogind.so.0", "libelogind0", "the backlight guardian's brightness through elogind")

    /// Every library gymcard uses beside the ones every process links, ``elogindBus`` (which replaces
    /// ``systemdBus`` where it is installed) aside.
    public static let all: [SystemLibrary] = [
        .zbar, .libcrypto, .zxing, .dmtx, .heif, .webp, .tiff, .zint, .zip, .sqlite, .systemdBus,
    ]
}

/// What gymcard reads from the system that is no library: tzdata's zone files (a facility's clock). Here
/// beside the libraries so that Debian package names are written in one file.
public struct SystemData: Sendable, Hashable {
    /// The Debian package.
    public var debianPackage: String

    /// The command that installs it.
    public var installCommand: String { "apt install \(debianPackage)" }

    /// tzdata: `/usr/share/zoneinfo` (`$TZDIR`).
    public static let timeZones = SystemData(debianPackage: "tzdata")
}

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

    /// A library.
    public init(name: String, soname: String, debianPackage: String, purpose: String) {
        self.name = name
        self.soname = soname
        self.debianPackage = debianPackage
        self.purpose = purpose
    }

    /// The command that installs it (`doctor`'s advice).
    public var installCommand: String { "apt install \(debianPackage)" }

    /// How every message about it missing ends: what to do.
    public var installAdvice: String { "install it (Debian: \(installCommand))" }

    /// libzbar, the first barcode reader (scan).
    public static let zbar = SystemLibrary(
        name: "libzbar", soname: "libzbar.so.0", debianPackage: "libzbar0", purpose: "reading barcodes (scan)"
    )

    /// libcrypto of OpenSSL 3: scrypt, HMAC-SHA-256 and ChaCha20-Poly1305 for the age file.
    public static let libcrypto = SystemLibrary(
        name: "libcrypto", soname: "libcrypto.so.3", debianPackage: "libssl3",
        purpose: "cards with a passphrase: OpenSSL 3")

    /// zxing-cpp, the second reader: linked by the `gymcard-zxing` helper, not loaded by gymcard itself
    /// (docs/ARCHITECTURE.md §14), so it has no function table; here for its package and its line.
    public static let zxing = SystemLibrary(
        name: "zxing", soname: "libZXing.so.2", debianPackage: "libzxing2",
        purpose: "scan's second reader: zxing-cpp")

    /// libdmtx 0.7, the Data Matrix decoder behind zxing-cpp's looks (docs/ARCHITECTURE.md §14).
    public static let dmtx = SystemLibrary(
        name: "libdmtx", soname: "libdmtx.so.0", debianPackage: "libdmtx0b",
        purpose: "Data Matrix codes zxing-cpp misses (scan)")

    /// libheif, for iPhone photos.
    public static let heif = SystemLibrary(
        name: "libheif", soname: "libheif.so.1", debianPackage: "libheif1",
        purpose: "HEIC and AVIF photos (scan)")

    /// libwebp, for what browsers save.
    public static let webp = SystemLibrary(
        name: "libwebp", soname: "libwebp.so.7", debianPackage: "libwebp7", purpose: "WebP images (scan)")

    /// libtiff 4.5 or later (for its per-file error handlers), for what scanners save.
    public static let tiff = SystemLibrary(
        name: "libtiff", soname: "libtiff.so.6", debianPackage: "libtiff6", purpose: "TIFF images (scan)")

    /// libzint 2.11, the encoder of every symbology but Codabar (in /usr/lib, which the loader searches).
    public static let zint = SystemLibrary(
        name: "libzint", soname: "libzint.so.2.11", debianPackage: "libzint2.11",
        purpose: "cards in symbologies other than Codabar")

    /// libzip, for Catima's export zips (AES-encrypted entries included).
    public static let zip = SystemLibrary(
        name: "libzip", soname: "libzip.so.4", debianPackage: "libzip4", purpose: "Catima's export zips")

    /// libsqlite3, for the occupancy history.
    public static let sqlite = SystemLibrary(
        name: "libsqlite3", soname: "libsqlite3.so.0", debianPackage: "libsqlite3-0",
        purpose: "the occupancy history: history, trends, best, collect")

    /// libsystemd's D-Bus client (sd-bus), for logind's SetBrightness (the backlight guardian).
    public static let systemdBus = SystemLibrary(
        name: "libsystemd", soname: "libsystemd.so.0", debianPackage: "libsystemd0",
        purpose: "the backlight guardian's brightness through logind")

    /// elogind's copy of sd-bus, the same API, tried when ``systemdBus`` does not load (a system that runs
    /// elogind instead of systemd; the two packages conflict, so no machine has both).
    public static let elogindBus = SystemLibrary(
        name: "libelogind", soname: "libelogind.so.0", debianPackage: "libelogind0",
        purpose: "the backlight guardian's brightness through elogind")

    /// Every library gymcard uses beside the ones every process links, ``elogindBus`` (which replaces
    /// ``systemdBus`` where it is installed) aside.
    public static let all: [SystemLibrary] = [
        .zbar, .libcrypto, .zxing, .dmtx, .heif, .webp, .tiff, .zint, .zip, .sqlite, .systemdBus,
    ]
}

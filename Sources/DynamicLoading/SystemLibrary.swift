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

    /// libdmtx 0.7, the Data Matrix decoder behind zxing-cpp's looks (docs/ARCHITECTURE.md §14).
    public static let dmtx = SystemLibrary(
        name: "libdmtx", soname: "libdmtx.so.0", debianPackage: "libdmtx0b",
        purpose: "Data Matrix codes zxing-cpp misses (scan)")
}

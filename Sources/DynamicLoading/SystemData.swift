/// What gymcard reads from the system that is no library: tzdata's zone files (a facility's clock). In the
/// registry's module, so that Debian package names are written here and in SystemLibrary.swift alone.
public struct SystemData: Sendable, Hashable {
    /// The Debian package.
    public var debianPackage: String

    /// The command that installs it.
    public var installCommand: String { "apt install \(debianPackage)" }

    /// tzdata: `/usr/share/zoneinfo` (`$TZDIR`).
    public static let timeZones = SystemData(debianPackage: "tzdata")
}

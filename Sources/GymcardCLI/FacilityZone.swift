import CivilTime
import FoundationEssentials
import Glibc

/// The facilities' time zone for the commands about weekdays and times of day (`trends`, `best`,
/// `collect --status`, the status-bar tooltip): a VT student abroad still sees McComas's Monday
/// mornings. FoundationEssentials has no named time zones, so the process adopts the zone through `TZ`
/// and libc does the rest (tzdata installed).
enum FacilityZone {
    /// Sets the process's zone to `identifier` and returns it.
    static func adopt(_ identifier: String, environment: [String: String]) throws -> LocalTimeZone {
        guard isInstalled(identifier, environment: environment) else {
            let directory = zoneDirectory(environment)
            throw Failure(
                "the time zone \(identifier) is not known here (no \(directory)/\(identifier)); "
                    + "install tzdata, or set occupancy.timeZone in the config file",
                status: .configError)
        }
        setenv("TZ", identifier, 1)
        tzset()
        return .system
    }

    /// Where tzdata lives: `TZDIR`, else `/usr/share/zoneinfo`.
    static func zoneDirectory(_ environment: [String: String]) -> String {
        environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    }

    /// Whether tzdata here has a zone file named `identifier`.
    static func isInstalled(_ identifier: String, environment: [String: String]) -> Bool {
        var status = stat()
        return stat(zoneDirectory(environment) + "/" + identifier, &status) == 0
            && status.st_mode & S_IFMT == S_IFREG
    }
}

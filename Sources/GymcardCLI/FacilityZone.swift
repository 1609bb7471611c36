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
        let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        var status = stat()
        guard stat(directory + "/" + identifier, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(
                "the time zone \(identifier) is not known here (no \(directory)/\(identifier)); "
                    + "install tzdata, or set occupancy.timeZone in the config file",
                status: .configError)
        }
        setenv("TZ", identifier, 1)
        tzset()
        return .system
    }
}

import CivilTime
import Glibc

/// The facilities' time zone for the commands about weekdays and times of day (`trends`, `best`,
/// `collect --status`, the status-bar tooltip): a VT student abroad still sees McComas's Monday
/// mornings.
///
/// FoundationEssentials has no named time zones. For now the process adopts the zone through `TZ` and
/// libc does the rest (tzdata installed); this is the one place that does so.
enum FacilityZone {
    /// The zone named `identifier`, adopted by the process.
    static func zone(_ identifier: String, environment: [String: String]) throws(ContextProblem)
        -> LocalTimeZone
    {
        let directory = zoneDirectory(environment)
        guard isInstalled(identifier, directory: directory) else {
            throw .unknownZone(identifier, directory: directory)
        }
        setenv("TZ", identifier, 1)
        tzset()
        return .system
    }

    /// Where tzdata lives: `TZDIR`, else `/usr/share/zoneinfo`.
    static func zoneDirectory(_ environment: [String: String]) -> String {
        environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    }

    /// Whether tzdata in `directory` has a zone file named `identifier`.
    static func isInstalled(_ identifier: String, directory: String) -> Bool {
        var status = stat()
        return stat(directory + "/" + identifier, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

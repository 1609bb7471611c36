import CivilTime
import Glibc
import Storage

/// The facilities' time zone for the commands about weekdays and times of day (`trends`, `best`,
/// `collect --status`, the status-bar tooltip): a VT student abroad still sees McComas's Monday
/// mornings.
///
/// FoundationEssentials has no named time zones, so the zone is read from tzdata's own file
/// (`$TZDIR/<name>`, tzfile(5)) by ``TZifZone``; the process's `TZ` is never changed, and
/// ``LocalTimeZone/system`` stays the user's own zone.
enum FacilityZone {
    /// The zone named `identifier`, read from tzdata.
    static func zone(_ identifier: String, environment: [String: String]) throws(ContextProblem)
        -> LocalTimeZone
    {
        let directory = zoneDirectory(environment)
        let path = directory + "/" + identifier
        guard isInstalled(identifier, directory: directory) else {
            throw .unknownZone(identifier, directory: directory)
        }
        do {
            // tzdata's largest files are under 4 KB; 256 KB is room for any real one.
            guard let bytes = try FileContents.read(path, limitBytes: 256 << 10) else {
                throw ContextProblem.unknownZone(identifier, directory: directory)
            }
            return LocalTimeZone(try TZifZone(bytes: bytes))
        } catch let problem as ContextProblem {
            throw problem
        } catch {
            throw .unreadableZone(identifier, path: path, reason: "\(error)")
        }
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

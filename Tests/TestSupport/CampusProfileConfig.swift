import Foundation

/// A config file with one added campus profile, as `campus add` writes it, in `home`'s XDG config folder.
public enum CampusProfileConfig {
    /// Writes `$home/config/gymcard/config.json` with the campus `name` (read from its page at `base`)
    /// and its facilities: key, name, short name, Fusion ID and capacity.
    public static func write(
        home: String, name: String, timeZone: String, base: String = "http://127.0.0.1:9",
        facilities: [(key: String, name: String, shortName: String, id: String, capacity: Int)]
    ) throws {
        let profile: [String: Any] = [
            "base": base, "read": "page", "timeZone": timeZone,
            "facilities": facilities.map {
                [
                    "key": $0.key, "name": $0.name, "shortName": $0.shortName, "id": $0.id,
                    "capacity": $0.capacity,
                ]
            },
        ]
        try FileManager.default.createDirectory(
            atPath: home + "/config/gymcard", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: ["campuses": [name: profile]]).write(
            to: URL(fileURLWithPath: home + "/config/gymcard/config.json"))
    }
}

import FoundationEssentials

/// A place whose occupancy gymcard shows.
public struct Facility: Sendable, Equatable {
    /// Stable key used in JSON and the state file: `war-memorial`.
    public var key: String
    /// Display name: `War Memorial Hall`.
    public var name: String
    /// A short name for status bars: `WM`.
    public var shortName: String
    /// The platform's facility ID (a UUID), sent in the request body.
    public var id: String
    /// Maximum occupancy, used when the page does not say.
    public var capacity: Int
    /// How many segments its bar has (the app: 14 for the gyms, 8 for the wall).
    public var segments: Int
    /// What its page counts: people, or only a percent (some campuses; ARCHITECTURE §12).
    public var measure: OccupancyMeasure = .people
    /// The building a vendor's zone belongs to (GoBoard's `FacilityName`, a Waitz floor's location), for
    /// grouping zones when they are listed; `nil` for a Fusion facility.
    public var group: String?

    /// Creates a facility.
    public init(
        key: String, name: String, shortName: String, id: String, capacity: Int, segments: Int,
        measure: OccupancyMeasure = .people
    ) {
        self.measure = measure
        self.key = key
        self.name = name
        self.shortName = shortName
        self.id = id
        self.capacity = capacity
        self.segments = segments
    }

    /// Virginia Tech's facilities in the app's order (ARCHITECTURE §7). McComas's ID changed since the app shipped.
    public static let virginiaTech: [Facility] = [
        Facility(
            key: "war-memorial", name: "War Memorial Hall", shortName: "WM",
            id: "55069633-b56e-43b7-a68a-64d79364988d", capacity: 1200, segments: 14),
        Facility(
            key: "mccomas", name: "McComas Hall", shortName: "McC",
            id: "232d714e-5b3e-4b0d-9936-e6a738150ec4", capacity: 600, segments: 14),
        Facility(
            key: "bouldering-wall", name: "Bouldering Wall", shortName: "Wall",
            id: "da838218-ae53-4c6f-b744-2213299033fc", capacity: 8, segments: 8),
    ]
}

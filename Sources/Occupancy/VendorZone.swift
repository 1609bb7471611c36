import FoundationEssentials

/// One zone (a GoBoard location, a Waitz location or one of its floors) as its vendor's answer gives it.
public struct VendorZone: Sendable, Equatable {
    /// Why a zone that is listed gives no figure: never read as 0 % or 0 people.
    public enum MissingFigure: String, Sendable, Equatable {
        /// The count is null or absent (GoBoard `LastCount`, Waitz `people`).
        case noCount
        /// The capacity is 0, null or absent: a count out of nothing is no percentage.
        case noCapacity
        /// A count below zero.
        case negativeCount
        /// Waitz says it has no data for it (`isAvailable: false`).
        case noData

        /// Says it for a person.
        public var description: String {
            switch self {
            case .noCount: "the source gives no count"
            case .noCapacity: "the source gives no capacity (0), so no percentage"
            case .negativeCount: "the source gives a count below zero"
            case .noData: "the source says it has no data for it now"
            }
        }
    }

    /// The vendor's stable ID: GoBoard's `LocationId` (`6129`); Waitz's `id` (`"<parent>/<id>"` for a
    /// floor), or its name where the answer has no `id`.
    public var id: String
    /// The name, trimmed (7 of Purdue's 35 names end in a space).
    public var name: String
    /// The building it belongs to: GoBoard's `FacilityName`, or a Waitz floor's location.
    public var group: String?
    /// How full: `nil` when the source gives no figure (``missingFigure`` says why).
    public var reading: OccupancyReading?
    /// Why there is no reading.
    public var missingFigure: MissingFigure?
    /// Closed by the source's own flag (GoBoard `IsClosed`, Waitz `isOpen: false`), whatever count it
    /// still carries.
    public var isClosed: Bool
    /// When the source last updated this zone's count (GoBoard's `LastUpdatedDateAndTime`, read in the
    /// campus's zone); `nil` for Waitz, whose answer has no time: the fetch time is the reading's time.
    public var sourceTime: Date?

    /// Creates a zone.
    public init(
        id: String, name: String, group: String?, reading: OccupancyReading?, missingFigure: MissingFigure?,
        isClosed: Bool, sourceTime: Date?
    ) {
        self.id = id
        self.name = name
        self.group = group
        self.reading = reading
        self.missingFigure = missingFigure
        self.isClosed = isClosed
        self.sourceTime = sourceTime
    }

    /// Whether more people are counted than the capacity (Purdue's Scifres 31/25: 124 %).
    public var isOverCapacity: Bool {
        guard let reading, reading.countsPeople else { return false }
        return reading.occupancy > reading.capacity
    }

    /// The zone as `campus add` and `facilities --discover` list a Fusion card.
    public var discovered: DiscoveredFacility {
        var found = DiscoveredFacility(id: id, name: name.isEmpty ? DiscoveredFacility.unnamed : name)
        found.group = group
        found.closed = isClosed
        if let reading {
            if reading.countsPeople {
                found.capacity = reading.capacity
                found.occupancy = reading.occupancy
            } else {
                found.measure = .percent
                found.percent = reading.occupancy
            }
        }
        return found
    }

    /// A people reading, or why there is none: a null or negative count, or a capacity that is 0 or null.
    static func figure(count: Int?, capacity: Int?) -> (OccupancyReading?, MissingFigure?) {
        guard let count else { return (nil, .noCount) }
        guard count >= 0 else { return (nil, .negativeCount) }
        guard let capacity, capacity > 0 else { return (nil, .noCapacity) }
        return (OccupancyReading(occupancy: count, capacity: capacity), nil)
    }
}

/// Why a vendor's answer holds no zones; the fetch reports it as `FetchError.unexpectedContent`, the way an
/// answer of the wrong kind is reported for every source.
public enum VendorAnswerProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// An HTML page (a sign-in, an error page, a site's front page) where JSON was expected.
    case htmlPage
    /// Bytes that are not JSON.
    case notJSON
    /// JSON of another shape: what was found instead (`a JSON object`).
    case unexpectedShape(found: String, expected: String)
    /// An empty list: no zones at all, which is what an account the vendor does not know gives.
    case noZones
    /// Entries, none of which could be read (each lacks its ID).
    case noReadableZones(entries: Int)

    /// What the answer was, after "host answered".
    public var description: String {
        switch self {
        case .htmlPage: "an HTML page instead of JSON"
        case .notJSON: "something that is not JSON"
        case .unexpectedShape(let found, let expected): "\(found) instead of \(expected)"
        case .noZones: "an empty list of zones"
        case .noReadableZones(let entries): "\(entries) entries, none with the ID of a zone"
        }
    }

    /// The answer's first byte that is not white space (a UTF-8 byte-order mark skipped) is `<`.
    static func looksLikeHTML(_ body: [UInt8]) -> Bool {
        var rest = body[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }
}

/// A JSON value that decodes whatever it is, so that a field of an unexpected type is read as absent
/// instead of failing the whole answer.
enum LooseJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LooseJSON])
    case object([String: LooseJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([LooseJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: LooseJSON].self))
        }
    }

    /// Parses `body`: ``VendorAnswerProblem/htmlPage`` or ``VendorAnswerProblem/notJSON`` when it is not JSON.
    static func parse(_ body: [UInt8]) throws(VendorAnswerProblem) -> LooseJSON {
        if VendorAnswerProblem.looksLikeHTML(body) { throw .htmlPage }
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { throw .notJSON }
        do { return try JSONDecoder().decode(LooseJSON.self, from: Data(body)) } catch { throw .notJSON }
    }

    subscript(key: String) -> LooseJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// A whole number (`62`, `62.0`); `nil` for anything else.
    var integer: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    var number: Double? {
        guard case .number(let value) = self, value.isFinite else { return nil }
        return value
    }

    var string: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    var bool: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// How a message names the kind of a value that was not the one expected.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "a JSON list"
        case .object: "a JSON object"
        }
    }
}

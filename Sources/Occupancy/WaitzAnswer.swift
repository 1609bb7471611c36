import FoundationEssentials
import TextSearch

/// Waitz's answer to `GET https://waitz.io/live/<slug>`: `{"data": [<location>, …]}` (SHAPES.md §2), read as
/// its data is.
///
/// - The count is `people` out of `capacity`; people above the capacity stay as they are (Waitz's own
///   `busyness` stops at 99). `percentage` (a 0…1 fraction) is the figure only where there is no
///   capacity at all: a percent-only reading. A capacity of 0 is no figure (its `percentage` is 0).
/// - `isAvailable: false` is no data: no figure. `isOpen: false` is closed, even with people counted.
/// - `subLocs` (a list, or `false`) are zones of their own, belonging to their location; a floor without
///   its own `isOpen` or `isAvailable` has its location's.
/// - The answer has no time: the fetch time is the reading's time (``VendorZone/sourceTime`` is `nil`).
public enum WaitzAnswer {
    /// The zones of an answer: each location, then its floors.
    ///
    /// - Throws: ``VendorAnswerProblem`` when the body is HTML, not JSON, has no `data` list, an empty one,
    ///   or entries none of which has a name or an ID.
    public static func zones(in body: [UInt8]) throws(VendorAnswerProblem) -> [VendorZone] {
        let json = try LooseJSON.parse(body)
        guard case .array(let entries)? = json["data"] else {
            let found = json["data"].map { "\($0.kindName) as data" } ?? json.kindName + " without data"
            throw .unexpectedShape(found: found, expected: "{\"data\": [locations]}")
        }
        guard !entries.isEmpty else { throw .noZones }
        var zones: [VendorZone] = []
        for entry in entries {
            guard let location = zone(entry, parent: nil) else { continue }
            zones.append(location)
            guard case .array(let floors)? = entry["subLocs"] else { continue }
            zones += floors.compactMap { zone($0, parent: (location, entry)) }
        }
        guard !zones.isEmpty else { throw .noReadableZones(entries: entries.count) }
        return zones
    }

    private static func zone(_ entry: LooseJSON, parent: (zone: VendorZone, entry: LooseJSON)?) -> VendorZone?
    {
        let name = entry["name"]?.string?.trimmed ?? ""
        let ownID = entry["id"]?.integer.map(String.init) ?? entry["id"]?.string?.trimmed
        guard let id = ownID ?? (name.isEmpty ? nil : name) else { return nil }
        let isOpen = entry["isOpen"]?.bool ?? parent?.entry["isOpen"]?.bool
        let isAvailable = entry["isAvailable"]?.bool ?? parent?.entry["isAvailable"]?.bool
        var reading: OccupancyReading?
        var missing: VendorZone.MissingFigure?
        if isAvailable == false {
            missing = .noData
        } else {
            (reading, missing) = VendorZone.figure(
                count: entry["people"]?.integer, capacity: entry["capacity"]?.integer)
            // A percent only where Waitz gives no capacity at all: with a capacity of 0 its `percentage` is
            // 0 too, which is no figure, never 0 %.
            if reading == nil, missing != .negativeCount, entry["capacity"]?.integer == nil,
                let fraction = entry["percentage"]?.number, (0...1.5).contains(fraction)
            {
                reading = .percentOnly(Int((fraction * 100).rounded()))
                missing = nil
            }
        }
        return VendorZone(
            id: parent.map { $0.zone.id + "/" + id } ?? id, name: name, group: parent?.zone.name,
            reading: reading, missingFigure: missing, isClosed: isOpen == false, sourceTime: nil)
    }
}

import CivilTime
import FoundationEssentials
import TextSearch

/// GoBoard's answer to `GET …/api/FacilityCount/GetCountsByAccount?AccountAPIKey=<key>`: a JSON list with one
/// object per zone of the account (SHAPES.md §1), read as its data is.
///
/// - The count is `LastCount` and the capacity `TotalCapacity`; `CountOfParticipants` and
///   `PercetageCapacity` (sic) are 0 in every real answer and are not read.
/// - Over capacity stays as it is (62 of 50); a capacity of 0 or a null count is no figure, never 0 %.
/// - `IsClosed` is closed whatever count the zone still carries (TREC: closed, 4).
/// - `LastUpdatedDateAndTime` is naive local time in the campus's zone, 0–3 fractional digits, nullable:
///   the reading's source time.
/// - `LocationId` is the stable key; names are trimmed; zones belong to their `FacilityName`.
public enum GoBoardAnswer {
    /// The zones of an answer, in its order.
    ///
    /// - Throws: ``VendorAnswerProblem`` when the body is HTML, not JSON, not a list, an empty list (what an
    ///   unknown key gives), or a list without one entry that has a `LocationId`.
    public static func zones(in body: [UInt8], zone: LocalTimeZone) throws(VendorAnswerProblem)
        -> [VendorZone]
    {
        let json = try LooseJSON.parse(body)
        guard case .array(let entries) = json else {
            throw .unexpectedShape(found: json.kindName, expected: "a list of zones")
        }
        guard !entries.isEmpty else { throw .noZones }
        let zones = entries.compactMap { entry in zoneOf(entry, zone: zone) }
        guard !zones.isEmpty else { throw .noReadableZones(entries: entries.count) }
        return zones
    }

    private static func zoneOf(_ entry: LooseJSON, zone: LocalTimeZone) -> VendorZone? {
        guard let locationID = entry["LocationId"]?.integer else { return nil }
        let (reading, missing) = VendorZone.figure(
            count: entry["LastCount"]?.integer, capacity: entry["TotalCapacity"]?.integer)
        return VendorZone(
            id: String(locationID), name: entry["LocationName"]?.string?.trimmed ?? "",
            group: entry["FacilityName"]?.string?.trimmed, reading: reading, missingFigure: missing,
            isClosed: entry["IsClosed"]?.bool ?? false,
            sourceTime: entry["LastUpdatedDateAndTime"]?.string.flatMap { localTime($0, zone: zone) })
    }

    /// `2026-02-06T21:12:41.077` (naive local time in `zone`) as a moment; 0 to 7 fractional digits are
    /// read (GoBoard drops trailing zeros, so 0–3 are seen; SHAPES.md advises tolerating up to 7). `nil`
    /// for any other text: a date out of range, a time zone suffix, a space instead of `T`.
    public static func localTime(_ text: String, zone: LocalTimeZone) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = digits(bytes[0..<4]), let month = digits(bytes[5..<7]),
            let day = digits(bytes[8..<10]),
            let hour = digits(bytes[11..<13]), let minute = digits(bytes[14..<16]),
            let second = digits(bytes[17..<19]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if bytes.count > 19 {
            let fractionDigits = bytes[20...]
            guard bytes[19] == UInt8(ascii: "."), (1...7).contains(fractionDigits.count),
                let value = digits(fractionDigits)
            else { return nil }
            fraction = Double(value) / pow10(fractionDigits.count)
        }
        let whole = zone.date(
            of: LocalDay(year: year, month: month, day: day), secondOfDay: hour * 3600 + minute * 60 + second)
        return whole.addingTimeInterval(fraction)
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

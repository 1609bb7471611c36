import CivilTime
import FoundationEssentials
import JSONOutput

/// `trends --json`: every facility's cells with their mean, day count and reading count, and the
/// comparison for now. Missing values are explicit `null`s; times ISO 8601 in UTC.
public enum TrendsJSON {
    struct Document: Encodable {
        var generatedAt: String
        var timeZone: String
        var weeks: Int
        var from: String
        var to: String
        var method: String
        var facilities: [FacilityEntry]
    }

    struct FacilityEntry: Encodable {
        var key: String
        var name: String
        var readings: Int
        var days: Int
        var now: Now
        var cells: [CellEntry]
    }

    struct Now: Encodable {
        var weekday: String
        var slot: String
        @ExplicitNull var percent: Int?
        @ExplicitNull var usualPercent: Double?
        @ExplicitNull var comparison: String?
    }

    struct CellEntry: Encodable {
        var weekday: String
        var start: String
        @ExplicitNull var meanPercent: Double?
        var days: Int
        var readings: Int
        var closedReadings: Int
    }

    /// The document for the facilities.
    public static func document(
        _ facilities: [HeatmapTextView.Facility], weeks: Int, timeZone: String, from: Date, to: Date,
        zone: LocalTimeZone, now: Date
    ) -> String {
        let position = WeeklyHeatmap.position(of: now, zone: zone)
        let entries = facilities.map { facility -> FacilityEntry in
            let usual = facility.heatmap.cells[position.weekday][position.slot].meanPercent
            var comparison: String?
            if let usual, let current = facility.currentPercent {
                let difference = Double(current) - usual
                comparison = abs(difference) <= 5 ? "as usual" : difference > 0 ? "busier" : "quieter"
            }
            var cells: [CellEntry] = []
            for weekday in 0..<7 {
                for slot in 0..<WeeklyHeatmap.slotsPerDay {
                    let cell = facility.heatmap.cells[weekday][slot]
                    cells.append(
                        CellEntry(
                            weekday: WeeklyHeatmap.weekdayNames[weekday],
                            start: WeeklyHeatmap.slotLabel(slot),
                            meanPercent: cell.meanPercent.map { ($0 * 10).rounded() / 10 }, days: cell.days,
                            readings: cell.readings, closedReadings: cell.closedReadings))
                }
            }
            return FacilityEntry(
                key: facility.heatmap.facility, name: facility.name, readings: facility.heatmap.readingCount,
                days: facility.heatmap.dayCount,
                now: Now(
                    weekday: WeeklyHeatmap.weekdayNames[position.weekday],
                    slot: WeeklyHeatmap.slotLabel(position.slot), percent: facility.currentPercent,
                    usualPercent: usual.map { ($0 * 10).rounded() / 10 }, comparison: comparison),
                cells: cells)
        }
        let document = Document(
            generatedAt: now.formatted(.iso8601), timeZone: timeZone, weeks: weeks,
            from: from.formatted(.iso8601),
            to: to.formatted(.iso8601),
            method:
                "each day's readings in a slot averaged first, days weighted equally; a day counts with at least "
                + "\(WeeklyHeatmap.minimumReadingsPerDay) readings in the slot, a slot needs "
                + "\(WeeklyHeatmap.minimumDays) such days; closed readings left out",
            facilities: entries)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(document) else { return "{}" }
        return JSONText.escapingTerminalControls(String(decoding: data, as: UTF8.self))
    }
}

import FoundationEssentials
import JSONOutput

/// The history as files to share or seed (`history export`, `history import`): CSV with the header
/// `facility,fetched_at,source_time,occupancy,capacity,status`, or a JSON array of objects with the same
/// fields. Times are ISO 8601 in UTC, `source_time` empty (CSV) or `null` (JSON) when unknown, status
/// `ok` or `closed`. Import is strict: the first malformed line stops it, and nothing is imported.
public enum HistoryExchange {
    /// The CSV header line, the columns in their order.
    public static let csvHeader = "facility,fetched_at,source_time,occupancy,capacity,status"

    /// A line of an import that is not right.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The line in the file (the CSV header is line 1).
        public var line: Int
        /// What is wrong with it.
        public var reason: String

        /// `line 7: occupancy is not a whole number ("12a")`.
        public var description: String { "line \(line): \(reason)" }
    }

    // MARK: - Export

    /// The readings as CSV, header first, one line each.
    public static func csv(_ readings: [HistoryReading]) -> String {
        text(of: readings, format: .csv)
    }

    /// The readings as a JSON array, one object per line.
    public static func json(_ readings: [HistoryReading]) -> String {
        text(of: readings, format: .json)
    }

    private static func text(of readings: [HistoryReading], format: ExportFormat) -> String {
        var bytes: [UInt8] = []
        var writer = ExportWriter(format: format) { bytes += $0 }
        for reading in readings { writer.add(reading) }
        writer.finish()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The two export formats.
    public enum ExportFormat: Sendable {
        /// CSV with the header line.
        case csv
        /// A JSON array, one object per line.
        case json
    }

    /// An export written as the readings come, in pieces of about 64 KiB, so that exporting a year of
    /// history takes the memory of one piece, not of the whole file (measured: 209 MB for a year as JSON
    /// when it was built whole).
    public struct ExportWriter {
        private let format: ExportFormat
        private let output: ([UInt8]) -> Void
        private var pending: [UInt8] = []
        private var count = 0
        private static let pieceBytes = 1 << 16

        /// A writer in `format` that hands each piece of text to `output`.
        public init(format: ExportFormat, output: @escaping ([UInt8]) -> Void) {
            self.format = format
            self.output = output
            pending.reserveCapacity(Self.pieceBytes + 512)
            if format == .csv { pending += Array((csvHeader + "\n").utf8) }
        }

        /// Adds one reading.
        public mutating func add(_ reading: HistoryReading) {
            let source = reading.sourceTime.map(utc)
            switch format {
            case .csv:
                let line =
                    reading.facility + "," + utc(reading.fetchedAt) + "," + (source ?? "")
                    + ",\(reading.occupancy),\(reading.capacity)," + reading.status.rawValue + "\n"
                pending += line.utf8
            case .json:
                let object =
                    (count == 0 ? "[\n" : ",\n") + "{\"facility\": \(JSONText.quoted(reading.facility)), "
                    + "\"fetched_at\": \"\(utc(reading.fetchedAt))\", "
                    + "\"source_time\": \(source.map { "\"\($0)\"" } ?? "null"), "
                    + "\"occupancy\": \(reading.occupancy), \"capacity\": \(reading.capacity), "
                    + "\"status\": \"\(reading.status.rawValue)\"}"
                pending += object.utf8
            }
            count += 1
            if pending.count >= Self.pieceBytes {
                output(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }

        /// Ends the export (the JSON array's closing bracket) and hands over what is left.
        public mutating func finish() {
            if format == .json { pending += Array((count == 0 ? "[]\n" : "\n]\n").utf8) }
            if !pending.isEmpty { output(pending) }
            pending.removeAll()
        }
    }

    // MARK: - Import

    /// Reads an export: JSON when the first non-blank character is `[`, otherwise CSV.
    public static func parse(_ bytes: [UInt8]) throws(Problem) -> [HistoryReading] {
        let text = String(
            decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes,
            as: UTF8.self)
        if text.first(where: { !$0.isWhitespace }) == "[" { return try parseJSON(text) }
        return try parseCSV(text)
    }

    static func parseCSV(_ text: String) throws(Problem) -> [HistoryReading] {
        var readings: [HistoryReading] = []
        // "\r\n" is one Character in Swift: a file from Excel or Windows is split on it too.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if number == 1 {
                guard line == csvHeader else {
                    throw Problem(line: 1, reason: "the first line must be the header \(csvHeader)")
                }
                continue
            }
            if line.allSatisfy(\.isWhitespace) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6 else {
                throw Problem(line: number, reason: "\(fields.count) fields instead of 6")
            }
            do throws(FieldProblem) {
                readings.append(
                    try reading(
                        facility: fields[0], fetchedAt: fields[1],
                        sourceTime: fields[2].isEmpty ? nil : fields[2],
                        occupancy: fields[3], capacity: fields[4], status: fields[5]))
            } catch { throw Problem(line: number, reason: error.reason) }
        }
        return readings
    }

    /// One object of a JSON export, loosely typed so that a wrong value is reported by field.
    private struct Item: Decodable {
        var facility: String?
        var fetchedAt: String?
        var sourceTime: String?
        var occupancy: Int?
        var capacity: Int?
        var status: String?

        enum CodingKeys: String, CodingKey {
            case facility, occupancy, capacity, status
            case fetchedAt = "fetched_at"
            case sourceTime = "source_time"
        }
    }

    static func parseJSON(_ text: String) throws(Problem) -> [HistoryReading] {
        let starts = objectStartLines(text)
        let items: [Item]
        do { items = try JSONDecoder().decode([Item].self, from: Data(text.utf8)) } catch {
            if case DecodingError.typeMismatch(_, let context) = error,
                let index = context.codingPath.first?.intValue
            {
                let field = context.codingPath.dropFirst().first?.stringValue ?? "a field"
                throw Problem(line: line(of: index, in: starts), reason: "\(field) has the wrong type")
            }
            throw Problem(line: 1, reason: "not a JSON array of readings")
        }
        var readings: [HistoryReading] = []
        for (index, item) in items.enumerated() {
            do throws(FieldProblem) {
                guard let facility = item.facility, let fetchedAt = item.fetchedAt else {
                    throw FieldProblem(reason: "facility and fetched_at are required")
                }
                guard let occupancy = item.occupancy, let capacity = item.capacity, let status = item.status
                else {
                    throw FieldProblem(reason: "occupancy, capacity and status are required")
                }
                readings.append(
                    try reading(
                        facility: facility, fetchedAt: fetchedAt, sourceTime: item.sourceTime,
                        occupancy: String(occupancy), capacity: String(capacity), status: status))
            } catch { throw Problem(line: line(of: index, in: starts), reason: error.reason) }
        }
        return readings
    }

    private struct FieldProblem: Error {
        var reason: String
    }

    private static func reading(
        facility: String, fetchedAt: String, sourceTime: String?, occupancy: String, capacity: String,
        status: String
    ) throws(FieldProblem) -> HistoryReading {
        guard isFacilityKey(facility) else {
            throw FieldProblem(reason: "the facility \"\(facility)\" is not a key (letters, digits, - _ .)")
        }
        guard let fetched = try? Date(fetchedAt, strategy: .iso8601) else {
            throw FieldProblem(reason: "fetched_at is not an ISO 8601 time (\"\(fetchedAt)\")")
        }
        var source: Date?
        if let sourceTime {
            guard let date = try? Date(sourceTime, strategy: .iso8601) else {
                throw FieldProblem(reason: "source_time is not an ISO 8601 time (\"\(sourceTime)\")")
            }
            source = date
        }
        guard let people = Int(occupancy), people >= 0 else {
            throw FieldProblem(reason: "occupancy is not a whole number of at least 0 (\"\(occupancy)\")")
        }
        guard let places = Int(capacity), places > 0 else {
            throw FieldProblem(reason: "capacity is not a whole number above 0 (\"\(capacity)\")")
        }
        guard let readingStatus = HistoryReading.Status(rawValue: status) else {
            throw FieldProblem(reason: "status is not ok or closed (\"\(status)\")")
        }
        return HistoryReading(
            facility: facility, fetchedAt: fetched, sourceTime: source, occupancy: people, capacity: places,
            status: readingStatus)
    }

    /// The line each top-level object of a JSON array starts on (a small scanner that skips strings).
    private static func objectStartLines(_ text: String) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if byte == 10 { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 92 {
                    escaped = true
                } else if byte == 34 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 34: inString = true
            case 91, 123:
                if byte == 123, depth == 1 { lines.append(line) }
                depth += 1
            case 93, 125: depth -= 1
            default: break
            }
        }
        return lines
    }

    private static func line(of index: Int, in starts: [Int]) -> Int {
        index < starts.count ? starts[index] : 1
    }

    /// A facility key: 1–64 letters, digits, `-`, `_` or `.`.
    public static func isFacilityKey(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "-_.".unicodeScalars.contains($0)
            }
    }

    /// `2026-11-22T17:00:00Z`.
    public static func utc(_ date: Date) -> String { date.formatted(.iso8601) }
}

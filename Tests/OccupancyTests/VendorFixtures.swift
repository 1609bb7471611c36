import CivilTime
import Fetching
import FetchingCurl
import Foundation
import Occupancy
import TestServer
import TestSupport

/// `../shared/realworld/occupancy-vendors`: what open-source GoBoard and Waitz clients saved (absent outside
/// this workspace); its MANIFEST.tsv says what each file shows, SHAPES.md how each was requested.
enum VendorFixtures {
    static let folder = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/occupancy-vendors")

    /// Whether the folder is there.
    static var present: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("MANIFEST.tsv").path)
    }

    /// The four complete Purdue GoBoard answers.
    static let purdueAnswers = [
        "connect2concepts-goboard/purdue-corec-2026-01-31T2304Z.json",
        "connect2concepts-goboard/purdue-corec-2026-02-01T1536Z-morning-8-closed.json",
        "connect2concepts-goboard/purdue-corec-2026-02-06T2301Z-over-capacity.json",
        "connect2concepts-goboard/purdue-corec-2026-02-07T0305Z-overnight-stale.json",
    ]

    static let uwLog = "connect2concepts-goboard/uw-madison-recwell-collector-log-first54.csv"
    static let ucsdLog = "waitz/ucsd-rec-occupancy-history-first84.csv"
    static let geiselLog = "waitz/ucsd-geisel-1st-floor-east-percentage-first200.csv"

    static func bytes(_ file: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(file))
    }

    /// The CSV's rows as dictionaries by header (no field in these files holds a comma or a quote).
    static func csv(_ file: String) throws -> [[String: String]] {
        let lines = String(decoding: try bytes(file), as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false) else {
            return []
        }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return Dictionary(uniqueKeysWithValues: zip(header.map(String.init), fields.map(String.init)))
        }
    }

    /// The rows grouped by one column, in the file's order of first appearance.
    static func polls(_ rows: [[String: String]], by column: String) -> [(
        key: String, rows: [[String: String]]
    )] {
        var order: [String] = []
        var groups: [String: [[String: String]]] = [:]
        for row in rows {
            let key = row[column] ?? ""
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// The UW-Madison log's poll rebuilt into the GoBoard answer it was logged from (SHAPES.md §1): each
    /// row's logged raw fields under GoBoard's names, `LastUpdatedDateAndTime` verbatim. The fields the log
    /// does not keep (colours, thresholds, the two always-0 fields) are the ones gymcard does not read; they
    /// are left out rather than invented.
    static func goboardAnswer(fromUWPoll rows: [[String: String]]) throws -> Data {
        let entries: [[String: Any]] = rows.map { row in
            [
                "LocationId": orNull(Int(row["location_id"] ?? "")),
                "TotalCapacity": orNull(Int(row["capacity"] ?? "")),
                "LocationName": row["zone"] ?? "",
                "LastUpdatedDateAndTime": orNull(
                    row["source_updated_at_raw"].flatMap { $0.isEmpty ? nil : $0 }),
                "LastCount": orNull(Int(row["count"] ?? "")),
                "FacilityId": orNull(Int(row["facility_id"] ?? "")),
                "FacilityName": row["facility"] ?? "",
                "IsClosed": row["is_closed"] == "True",
            ]
        }
        return try JSONSerialization.data(withJSONObject: entries)
    }

    private static func orNull(_ value: (some Any)?) -> Any { value.map { $0 as Any } ?? NSNull() }

    /// The UCSD Waitz log's poll rebuilt into the `/live/ucsd-rec` answer it was logged from (SHAPES.md §2):
    /// `busyness` = percent_full, `percentage` = busyness/100 (as Waitz derives it), `isOpen` = is_open,
    /// `isAvailable` = not is_data_unavailable, `hourSummary`, `locHtml.summary` = raw_text; `subLocs` false
    /// (the log has no floors). The log keeps no `id`: the entries have none.
    static func waitzAnswer(fromUCSDPoll rows: [[String: String]]) throws -> Data {
        let entries: [[String: Any]] = rows.map { row in
            let busyness = Int(row["percent_full"] ?? "") ?? 0
            return [
                "name": row["facility_name"] ?? "", "busyness": busyness,
                "people": Int(row["people"] ?? "") ?? 0, "capacity": Int(row["capacity"] ?? "") ?? 0,
                "isAvailable": row["is_data_unavailable"] != "True", "isOpen": row["is_open"] == "True",
                "hourSummary": row["hour_summary"] ?? "", "percentage": Double(busyness) / 100,
                "subLocs": false, "locHtml": ["summary": row["raw_text"] ?? ""],
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["data": entries])
    }

    /// A tzdata zone, read as gymcard reads one.
    static func zone(_ name: String) throws -> LocalTimeZone {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name))
        return LocalTimeZone(try TZifZone(bytes: Array(bytes)))
    }

    /// Whether tzdata is installed here.
    static var hasTZData: Bool {
        FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/America/Chicago")
    }

    /// The fetcher the Fusion tests use: libcurl, one attempt, a generous limit for answers that must come.
    static func fetcher(attempts: Int = 1) -> Fetcher {
        Fetcher(
            client: CurlClient(userAgent: "gymcard/test"),
            policy: FetchPolicy(timeoutSeconds: 30, maximumAttempts: attempts, backoffSeconds: 0.05))
    }

    /// A JSON answer.
}

// Writes a seeded occupancy history for Benchmarks/history.sh, and times what recording one sample
// costs, in a process of its own:
//   generate-history write PATH END_ISO8601 DAYS     one reading every 5 minutes per facility (3)
//   generate-history record PATH                     open the history and record one sample (3 readings)
//   generate-history nothing PATH                    start and stop (the baseline for `record`)
import Foundation
import History
import TestSupport
import TestTime

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(
        Data("usage: generate-history write|record|nothing PATH [END DAYS]\n".utf8))
    exit(64)
}
let path = arguments[2]
let facilities = [("war-memorial", 1200), ("mccomas", 600), ("bouldering-wall", 8)]
switch arguments[1] {
case "write":
    guard arguments.count == 5, let end = try? Date(arguments[3], strategy: .iso8601),
        let days = Double(arguments[4])
    else { exit(64) }
    let generator = HistoryGenerator(
        facilities: facilities.map { (key: $0.0, capacity: $0.1) }, missingShare: 0, failedDaysBack: [])
    let store = try HistoryStore(path: path)
    // A month at a time, so that memory stays small.
    var start = end.addingTimeInterval(-days * 86_400)
    while start < end {
        let stop = min(end, start.addingTimeInterval(30 * 86_400))
        try store.recordAll(generator.samples(from: start, to: stop))
        start = stop
    }
case "record":
    let now = Date()
    let store = try HistoryStore(path: path)
    try store.record(
        HistoryAttempt(at: now, status: .success),
        readings: facilities.map {
            HistoryReading(facility: $0.0, facilityID: "id", fetchedAt: now, occupancy: 1, capacity: $0.1)
        })
case "nothing":
    break
default:
    exit(64)
}

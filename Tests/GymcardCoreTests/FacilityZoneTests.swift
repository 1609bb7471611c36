import CampusFeature
import CardFeature
import CivilTime
import Foundation
import GymcardCore
import TestSupport
import Testing

/// Named time zones read from tzdata's files (TZif), checked against libc's `localtime_r` with `TZ` set
/// in a child process (this process's `TZ` is never touched).
@Suite struct FacilityZoneTests {
    private static func context(_ environment: [String: String] = [:]) throws -> Context {
        try Context(environment: ["HOME": "/nonexistent"].merging(environment) { $1 }, online: nil) { _ in }
    }

    /// Every half hour of `year` (and the second before each), as libc's `localtime_r` offsets under `TZ=zone`.
    private static func libcOffsets(_ zone: String, from start: Int, to end: Int, step: Int) async throws
        -> [Int]
    {
        let script = """
            import os, sys, time
            os.environ["TZ"] = sys.argv[1]
            time.tzset()
            start, end, step = map(int, sys.argv[2:5])
            print(" ".join(f"{time.localtime(t - 1).tm_gmtoff} {time.localtime(t).tm_gmtoff}" for t in range(start, end, step)))
            """
        let (status, output, error) = try await Interop.runPython(
            script, [zone, "\(start)", "\(end)", "\(step)"])
        try #require(status == 0, "\(error)")
        return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
            Int($0)
        }
    }

    @Test(
        "offsets agree with libc's localtime_r every half hour, around each clock change and after the file's last transition",
        arguments: [
            ("America/New_York", 2025), ("America/New_York", 2007), ("America/New_York", 2080),
            ("Europe/London", 2026), ("Europe/London", 2080), ("Australia/Lord_Howe", 2026),
            ("Australia/Lord_Howe", 2080), ("Asia/Kolkata", 2026), ("Asia/Kolkata", 1942),
            ("America/Sao_Paulo", 2018),
        ])
    func agreesWithLibc(zone name: String, year: Int) async throws {
        let zone = try Self.context().zone(name)
        let start = LocalDay(year: year, month: 1, day: 1).number * 86_400 - 86_400
        let end = LocalDay(year: year + 1, month: 1, day: 1).number * 86_400 + 86_400
        let expected = try await Self.libcOffsets(name, from: start, to: end, step: 1800)
        var ours: [Int] = []
        for moment in stride(from: start, to: end, by: 1800) {
            ours.append(zone.offsetSeconds(Date(timeIntervalSince1970: Double(moment - 1))))
            ours.append(zone.offsetSeconds(Date(timeIntervalSince1970: Double(moment))))
        }
        try #require(expected.count == ours.count)
        let firstDifference = expected.indices.first { expected[$0] != ours[$0] }
        #expect(
            firstDifference == nil,
            "\(name): libc says \(firstDifference.map { expected[$0] } ?? 0) s at sample \(firstDifference ?? 0), not \(firstDifference.map { ours[$0] } ?? 0)"
        )
        // The year has its clock changes (Kolkata has had none since 1945).
        #expect(Set(expected).count == (name == "Asia/Kolkata" && year > 1945 ? 1 : 2))
    }

    @Test("local days and clock times in a facility's zone, while this process's own zone stays its own")
    func daysAndClocks() throws {
        let zone = try Self.context().zone("America/New_York")
        // 2026-03-08 is the spring change: 2:30 does not exist; 3:30 is 7:30 UTC.
        let day = LocalDay(year: 2026, month: 3, day: 8)
        let moment = zone.date(of: day, secondOfDay: 3 * 3600 + 1800)
        #expect(Int(moment.timeIntervalSince1970) == day.number * 86_400 + 7 * 3600 + 1800)
        #expect(zone.clock(of: moment) == (3, 30))
        #expect(getenv("TZ").map { String(cString: $0) } != "America/New_York")
    }

    @Test(
        "a damaged or short tzdata file is refused, never read as UTC",
        arguments: [
            ("empty", 0), ("magic only", 4), ("header only", 44), ("cut in the 64-bit block", 1500),
            ("no footer", -1), ("not TZif", -2), ("type index out of range", -3),
        ])
    func damaged(what: String, keep: Int) throws {
        let original = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/America/New_York")))
        var bytes: [UInt8]
        switch keep {
        case -1: bytes = Array(original[..<(original.lastIndex(of: 0x0A, before: original.count - 1) ?? 0)])
        case -2: bytes = Array("<html>not a zone</html>".utf8) + original
        case -3:
            bytes = original
            // The first 64-bit transition's type index: past both headers, the v1 block and 8 × timecnt bytes.
            let count = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            let v1 = 44 + count(32) * 5 + count(36) * 6 + count(40) + count(28) * 8 + count(24) + count(20)
            bytes[v1 + 44 + count(v1 + 32) * 8] = 250
        default: bytes = Array(original.prefix(keep))
        }
        #expect(throws: TZifProblem.self, "\(what)") { try TZifZone(bytes: bytes) }
        // Through the context: a file in a tzdata folder of its own, said as unreadable.
        let folder = try TemporaryDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/Broken"))
        #expect(throws: ContextProblem.self) { try Self.context(["TZDIR": folder.path]).zone("Broken") }
    }

    @Test(
        "POSIX TZ rules from footers",
        arguments: [
            ("EST5EDT,M3.2.0,M11.1.0", -18_000, Int?.some(-14_400)),
            ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 37_800, 39_600),
            ("IST-5:30", 19_800, nil),
            ("<-03>3", -10_800, nil),
            ("GMT0BST,M3.5.0/1,M10.5.0", 0, 3600),
        ])
    func footerRules(text: String, standard: Int, daylight: Int?) throws {
        let rule = try #require(POSIXTimeZoneRule(text))
        #expect(rule.standardOffset == standard)
        #expect(rule.daylight?.offset == daylight)
    }

    @Test(
        "not POSIX TZ rules",
        arguments: ["", "E5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "<+05"])
    func notRules(text: String) {
        #expect(POSIXTimeZoneRule(text) == nil)
    }
}

extension Array where Element == UInt8 {
    fileprivate func lastIndex(of byte: UInt8, before end: Int) -> Int? {
        self[..<end].lastIndex(of: byte)
    }
}

import CampusFeature
import CardFeature
import Diagnosis
import Foundation
import GymcardCore
import Occupancy
import Synchronization
import TestSupport
import Testing

/// The process context: built from an environment, the config file read once, one facility lookup.
@Suite struct ContextTests {
    /// A context over a temporary XDG config home, with its warnings collected.
    private static func context(config: String?, in directory: TemporaryDirectory) throws
        -> (Context, Warnings)
    {
        if let config {
            try FileManager.default.createDirectory(
                atPath: directory.path + "/gymcard", withIntermediateDirectories: true)
            try config.write(
                toFile: directory.path + "/gymcard/config.json", atomically: true, encoding: .utf8)
        }
        let warnings = Warnings()
        let context = try Context(
            environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path], online: nil,
            configShape: ConfigFile.gymcardShape
        ) { warning in warnings.lines.withLock { $0.append(warning) } }
        return (context, warnings)
    }

    @Test func theConfigFileIsReadOnceAndItsUnknownKeysWarnedOnce() throws {
        let directory = try TemporaryDirectory()
        let (context, warnings) = try Self.context(config: #"{"ocupancy": {}}"#, in: directory)
        _ = try context.config.read()
        _ = try context.config.occupancySettings()
        _ = try context.config.eventsSettings()
        #expect(warnings.lines.withLock { $0.count } == 1)
        #expect(warnings.lines.withLock { $0.first?.contains("occupancy") } == true)
        // Read once: a change on disk after the first read is not seen by this process.
        try "not json".write(
            toFile: directory.path + "/gymcard/config.json", atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { try context.config.read() }
    }

    @Test func aProblemInTheFileNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let (context, _) = try Self.context(config: "{\n  \"campus\": [", in: directory)
        #expect {
            try context.config.read()
        } throws: { error in
            (error as? ConfigFileProblem)?.path == directory.path + "/gymcard/config.json"
        }
    }

    @Test func aTestClockThatIsNotATimeIsRefused() {
        #expect(throws: ContextProblem.self) {
            try Context(environment: ["GYMCARD_TEST_NOW": "yesterday"], online: nil) { _ in }
        }
        let context = try? Context(environment: ["GYMCARD_TEST_NOW": "2026-11-25T12:00:00Z"], online: nil) {
            _ in
        }
        #expect(context?.clock.now == Date(timeIntervalSince1970: 1_795_608_000))
    }

    /// A stalled test process (two cores, hundreds of tests) must not move a scaled test clock: a wait's
    /// hold is measured on it, and a 30-second stall once made five polls a ten-minute hold.
    @Test func aScaledTestClockMovesOnlyBySleeps() async throws {
        let clock = try CurrentTime([
            "GYMCARD_TEST_NOW": "2026-11-25T12:00:00Z", "GYMCARD_TEST_TIME_SCALE": "600",
        ])
        let start = clock.now
        usleep(50_000)
        #expect(clock.now == start)
        try await clock.sleep(seconds: 120)
        #expect(clock.now == start.addingTimeInterval(120))
    }

    @Test(arguments: [
        ("war", "war-memorial"), ("War Memorial Hall", "war-memorial"), ("mcc", "mccomas"),
        ("WALL", "bouldering-wall"),
        ("bould", "bouldering-wall"),
    ])
    func aFacilityIsFoundByKeyNameShortNameOrAUniquePrefix(_ argument: String, key: String) throws {
        let settings = OccupancySettings.virginiaTech
        #expect(try settings.facilities(matching: argument).map(\.key) == [key])
    }

    @Test func noFacilityOrSeveralAreProblemsNamingTheKnownKeys() throws {
        let settings = OccupancySettings.virginiaTech
        #expect { try settings.facilities(matching: "gym") } throws: { error in
            let problem = error as? FacilityLookupProblem
            return problem?.ambiguous == false && problem?.known.count == 3
        }
        #expect(try settings.facilities(matching: nil).count == 3)
    }
}

/// Warnings said by a context, in order.
private final class Warnings: Sendable {
    let lines = Mutex<[String]>([])
}

import Foundation
import TestSupport
import Testing

@testable import Backlight

/// The guardian as gymcard starts it (the built binary, through ``BacklightGuard``), over a stand-in
/// folder, with a system bus that is not there (so that a real logind on the machine is never asked).
@Suite("The backlight guardian: a process that puts the level back when the card's end closes")
struct BacklightGuardTests {
    static let environment = [
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent-gymcard-test/bus", "PATH": "/usr/bin:/bin",
    ]

    func start(_ standIn: StandInBacklight) throws -> BacklightGuard {
        try #require(
            BacklightGuard.start(
                folder: BacklightFolder(path: standIn.path), environment: Self.environment,
                executable: GymcardProcess.executable.path))
    }

    /// The guardian's line: what it did.
    func report(_ guardian: BacklightGuard) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var request = pollfd(fd: guardian.descriptor, events: Int16(POLLIN), revents: 0)
        while !bytes.contains(0x0A), poll(&request, 1, 60_000) > 0, read(guardian.descriptor, &byte, 1) == 1 {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("raised while held, and back at the exact level when finish() returns")
    func heldAndFinished() async throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 4321, of: 96000)])
        let guardian = try start(standIn)
        #expect(report(guardian) == "raised intel_backlight 4321 96000\n")
        #expect(standIn.brightness("intel_backlight") == "96000\n")
        guardian.finish()
        #expect(standIn.brightness("intel_backlight") == "4321\n", "put back before finish() returns")
    }

    @Test(
        "the card's end closed without a word (its process killed): the guardian puts the level back")
    func endClosed() async throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 17, of: 255)])
        let guardian = try start(standIn)
        #expect(report(guardian) == "raised intel_backlight 17 255\n")
        close(guardian.descriptor)
        #expect(await standIn.waitForLevel("intel_backlight", 17) == 17)
        var status: Int32 = 0
        #expect(waitpid(guardian.process, &status, 0) == guardian.process)
        #expect(status == 0, "it exits on its own")
    }

    @Test("signals sent to the guardian alone do not end it before the card's end closes")
    func ignoresSignals() async throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 3, of: 7)])
        let guardian = try start(standIn)
        #expect(report(guardian) == "raised intel_backlight 3 7\n")
        for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] { kill(guardian.process, number) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(kill(guardian.process, 0) == 0, "still running")
        #expect(standIn.level("intel_backlight") == 7)
        guardian.finish()
        #expect(standIn.level("intel_backlight") == 3)
    }

    @Test("already at the maximum: it says so, ends at once and writes nothing")
    func atMaximum() async throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 255, of: 255)])
        standIn.backdate("intel_backlight")
        let guardian = try start(standIn)
        #expect(report(guardian) == "unchanged\n")
        guardian.finish()
        #expect(standIn.modified("intel_backlight") == 1_000_000_000)
    }

    @Test("no backlight (a desktop): it says so and ends")
    func noBacklight() async throws {
        let standIn = try StandInBacklight([])
        let guardian = try start(standIn)
        #expect(report(guardian) == "unchanged\n")
        guardian.finish()
    }

    @Test("`gymcard backlight-guardian` typed by a person (no socket) is the command line's usage error")
    func notWithoutSocket() async throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 1, of: 2)])
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path, extra: Self.environment).run([
            "backlight-guardian", standIn.path,
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(standIn.level("intel_backlight") == 1)
    }
}

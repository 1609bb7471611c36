import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Backlight

/// What the tests' logind was asked, and what it answers.
final class LogindCalls: Sendable {
    let calls = Mutex<[String]>([])
    let answer: @Sendable (Int) -> LogindBrightness.Answer

    init(_ answer: @escaping @Sendable (Int) -> LogindBrightness.Answer) { self.answer = answer }

    var record: [String] { calls.withLock { $0 } }

    func ask(_ device: String, _ level: UInt32) -> LogindBrightness.Answer {
        let index = calls.withLock { calls in
            calls.append("\(device) \(level)")
            return calls.count - 1
        }
        return answer(index)
    }
}

@Suite("Raising the backlight and putting it back, by logind or the file")
struct BacklightLevelTests {
    func level(_ standIn: StandInBacklight, remote: Bool = false, logind: LogindCalls) -> BacklightLevel {
        BacklightLevel(folder: BacklightFolder(path: standIn.path), remote: remote) { logind.ask($0, $1) }
    }

    @Test(
        "no logind to ask: the file goes to the maximum, then back to the exact level it had",
        arguments: [
            LogindBrightness.Answer.unreachable("no system bus"),
            .unreachable("org.freedesktop.DBus.Error.ServiceUnknown"),
        ])
    func fileWhenNoLogind(answer: LogindBrightness.Answer) throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 4321, of: 96000)])
        let logind = LogindCalls { _ in answer }
        let backlight = level(standIn, logind: logind)
        let raised = try #require(backlight.raise())
        #expect(!raised.throughLogind)
        #expect(standIn.brightness("intel_backlight") == "96000\n")
        backlight.restore(raised)
        #expect(standIn.brightness("intel_backlight") == "4321\n")
        #expect(logind.record == ["intel_backlight 96000"], "logind asked first, only to raise")
    }

    @Test("logind sets it: the file is not touched by gymcard, and logind is asked to put it back")
    func throughLogind() throws {
        let standIn = try StandInBacklight([.levels("amdgpu_bl0", 80, of: 255)])
        standIn.backdate("amdgpu_bl0")
        let logind = LogindCalls { _ in .done }
        let backlight = level(standIn, logind: logind)
        let raised = try #require(backlight.raise())
        #expect(raised.throughLogind)
        backlight.restore(raised)
        #expect(logind.record == ["amdgpu_bl0 255", "amdgpu_bl0 80"])
        #expect(standIn.modified("amdgpu_bl0") == 1_000_000_000)
    }

    @Test(
        "logind refuses (ssh: no seat; a session in the background; a device of another seat): nothing is written",
        arguments: [
            "org.freedesktop.login1.NotYourDevice: Your session has no seat, refusing.",
            "org.freedesktop.login1.NotYourDevice: Session is not in foreground, refusing.",
            "org.freedesktop.DBus.Error.AccessDenied: Only owner of session may change brightness.",
            "org.freedesktop.DBus.Error.NoReply: timed out",
        ])
    func refused(reason: String) throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 4321, of: 96000)])
        standIn.backdate("intel_backlight")
        let logind = LogindCalls { _ in .refused(reason) }
        #expect(level(standIn, logind: logind).raise() == nil)
        #expect(standIn.brightness("intel_backlight") == "4321\n")
        #expect(standIn.modified("intel_backlight") == 1_000_000_000)
    }

    @Test("a call that timed out but was carried out is still put back")
    func lateLogind() throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 10, of: 20)])
        let path = standIn.path + "/intel_backlight/brightness"
        let logind = LogindCalls { index in
            if index == 0 {
                try? Data("20\n".utf8).write(to: URL(fileURLWithPath: path))
                return .refused("org.freedesktop.DBus.Error.NoReply")
            }
            try? Data("10\n".utf8).write(to: URL(fileURLWithPath: path))
            return .done
        }
        let backlight = level(standIn, logind: logind)
        let raised = try #require(backlight.raise())
        backlight.restore(raised)
        #expect(standIn.brightness("intel_backlight") == "10\n")
        #expect(logind.record == ["intel_backlight 20", "intel_backlight 10"])
    }

    @Test(
        "already at its maximum (or above it): nothing is asked and nothing written", arguments: [255, 300])
    func atMaximum(brightness: UInt32) throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", brightness, of: 255)])
        standIn.backdate("intel_backlight")
        let logind = LogindCalls { _ in .unreachable("none") }
        #expect(level(standIn, logind: logind).raise() == nil)
        #expect(logind.record.isEmpty)
        #expect(standIn.modified("intel_backlight") == 1_000_000_000)
    }

    @Test("a remote shell without logind: nothing is written, though the file is writable")
    func remoteWithoutLogind() throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 1, of: 2)])
        standIn.backdate("intel_backlight")
        let logind = LogindCalls { _ in .unreachable("none") }
        #expect(level(standIn, remote: true, logind: logind).raise() == nil)
        #expect(standIn.modified("intel_backlight") == 1_000_000_000)
        for variable in ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"] {
            #expect(
                BacklightLevel(folder: BacklightFolder(path: standIn.path), environment: [variable: "x"])
                    .remote)
        }
        #expect(!BacklightLevel(folder: BacklightFolder(path: standIn.path), environment: [:]).remote)
    }

    @Test("logind refusing to put it back (the session went to the background): the file is written instead")
    func restoreFallsBackToFile() throws {
        let standIn = try StandInBacklight([.levels("intel_backlight", 7, of: 9)])
        let path = standIn.path + "/intel_backlight/brightness"
        let logind = LogindCalls { index in
            guard index == 0 else { return .refused("org.freedesktop.login1.NotYourDevice") }
            try? Data("9\n".utf8).write(to: URL(fileURLWithPath: path))
            return .done
        }
        let backlight = level(standIn, logind: logind)
        let raised = try #require(backlight.raise())
        #expect(standIn.brightness("intel_backlight") == "9\n")
        backlight.restore(raised)
        #expect(standIn.brightness("intel_backlight") == "7\n")
    }

    @Test("no device: nothing is asked")
    func noDevice() throws {
        let logind = LogindCalls { _ in .done }
        #expect(level(try StandInBacklight([]), logind: logind).raise() == nil)
        #expect(logind.record.isEmpty)
    }

    @Test("logind's errors: only those that say it is not there allow the file")
    func classification() {
        for name in LogindBrightness.absent { #expect(name.hasPrefix("org.freedesktop.DBus.Error.")) }
        #expect(!LogindBrightness.absent.contains("org.freedesktop.login1.NotYourDevice"))
        #expect(!LogindBrightness.absent.contains("org.freedesktop.DBus.Error.AccessDenied"))
        #expect(!LogindBrightness.absent.contains("System.Error.ENODEV"), "logind's: no such device")
    }
}

import Foundation
import TestSupport
import Testing

/// A D-Bus daemon of the test's own (`dbus-daemon`, its own socket) in the place of the system bus, and
/// on it a stand-in for systemd-logind's session object: Python with jeepney answering
/// `org.freedesktop.login1.Session.SetBrightness(ssu)` on `/org/freedesktop/login1/session/auto` as
/// logind does (writing the level to the device's `brightness` file), or refusing as logind refuses a
/// session without a seat (ssh). Every call it gets is logged.
struct PrivateLogind {
    let folder: TemporaryDirectory
    let daemon: ChildProcess
    let logind: ChildProcess

    /// The bus's address, for `DBUS_SYSTEM_BUS_ADDRESS`.
    var address: String { "unix:path=\(folder.path)/bus" }

    /// Whether dbus-daemon and jeepney are there; under CI they must be.
    static func canRun() async -> Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return BacklightShow.canRun }
        guard BacklightShow.canRun, FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
        else {
            return false
        }
        return await Interop.pythonHas("jeepney")
    }

    static let script = """
        import sys
        from jeepney import MessageType, HeaderFields, new_error, new_method_return
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection
        import time
        address, folder, mode, log_path = sys.argv[1:5]
        answered = 0
        connection = open_dbus_connection(bus=address)
        connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.login1"))
        print("ready", flush=True)
        while True:
            message = connection.receive()
            if message.header.message_type != MessageType.method_call:
                continue
            fields = message.header.fields
            call = (fields.get(HeaderFields.path), fields.get(HeaderFields.interface),
                    fields.get(HeaderFields.member), fields.get(HeaderFields.signature, ""))
            with open(log_path, "a") as log:
                log.write(" ".join(str(part) for part in call + tuple(message.body)) + "\\n")
            if call != ("/org/freedesktop/login1/session/auto", "org.freedesktop.login1.Session",
                        "SetBrightness", "ssu"):
                connection.send(new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", ("no",)))
            elif mode == "refuse":
                connection.send(new_error(message, "org.freedesktop.login1.NotYourDevice", "s",
                                          ("Your session has no seat, refusing.",)))
            else:
                # "slow": every call after the first (putting the level back) takes a second and a half.
                if mode == "slow" and answered > 0:
                    time.sleep(1.5)
                answered += 1
                subsystem, name, level = message.body
                with open(folder + "/" + name + "/brightness", "w") as device:
                    device.write("%d\\n" % level)
                connection.send(new_method_return(message))
        """

    /// How the stand-in answers.
    enum Mode: String {
        /// Sets the level at once.
        case set
        /// Refuses every call as logind refuses a session without a seat.
        case refuse
        /// Sets the level at once the first time, and 1.5 s after each later call.
        case slow
    }

    /// Starts the bus and the stand-in over `backlight` (a stand-in folder).
    static func start(backlight: String, mode: Mode) async throws -> PrivateLogind {
        let folder = try TemporaryDirectory()
        let daemon = try await ChildProcess.start(
            "/usr/bin/dbus-daemon", ["--session", "--address=unix:path=\(folder.path)/bus", "--nofork"])
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: folder.path + "/bus") {
            try await Task.sleep(for: .milliseconds(50))
        }
        let logind = try await ChildProcess.start(
            Interop.python,
            [
                "-c", script, "unix:path=\(folder.path)/bus", backlight, mode.rawValue,
                folder.path + "/calls",
            ])
        for _ in 0..<600
        where !logind.standardOutputSoFar.starts(with: Data("ready".utf8)) && !logind.hasEnded {
            try await Task.sleep(for: .milliseconds(50))
        }
        return PrivateLogind(folder: folder, daemon: daemon, logind: logind)
    }

    /// The calls it got, one line each: path, interface, member, signature, arguments.
    var calls: [String] {
        ((try? String(contentsOfFile: folder.path + "/calls", encoding: .utf8)) ?? "").split(separator: "\n")
            .map(String.init)
    }

    func stop() {
        logind.send(SIGKILL)
        daemon.send(SIGTERM)
    }
}

@Suite("gymcard show through logind's SetBrightness on a bus of the test's own", .serialized)
struct TurnstileLogindTests {
    static let call = "/org/freedesktop/login1/session/auto org.freedesktop.login1.Session SetBrightness ssu"

    @Test(
        "logind answers: it is asked for the maximum and then the exact level, on the caller's session",
        .enabled { await PrivateLogind.canRun() })
    func throughLogind() async throws {
        let show = try BacklightShow(level: 37, maximum: 255)
        defer { show.tmux.kill() }
        let logind = try await PrivateLogind.start(backlight: show.standIn.path, mode: .set)
        defer { logind.stop() }
        try await show.showCard(bus: logind.address)
        #expect(await show.raised())
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        try await show.tmux.waitFor("status=0")
        #expect(show.current == 37)
        #expect(
            logind.calls == [
                "\(Self.call) backlight gymcard_test_backlight 255",
                "\(Self.call) backlight gymcard_test_backlight 37",
            ])
    }

    @Test(
        "logind refuses (a session without a seat, as over ssh): the file is left alone though writable",
        .enabled { await PrivateLogind.canRun() })
    func refused() async throws {
        let show = try BacklightShow(level: 37, maximum: 255)
        defer { show.tmux.kill() }
        let logind = try await PrivateLogind.start(backlight: show.standIn.path, mode: .refuse)
        defer { logind.stop() }
        try await show.showCard(bus: logind.address)
        for _ in 0..<600 where logind.calls.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        try await show.tmux.waitFor("status=0")
        #expect(logind.calls == ["\(Self.call) backlight gymcard_test_backlight 255"], "asked once")
        #expect(!show.written && show.current == 37)
        #expect(try await show.said() == [], "nothing said")
    }

    @Test(
        "logind slow to put it back: gymcard's prompt returns only once it has, after a key and after SIGTERM",
        .enabled { await PrivateLogind.canRun() }, arguments: [nil, SIGTERM])
    func waitsForTheLevel(signal: Int32?) async throws {
        let show = try BacklightShow(level: 37, maximum: 255)
        defer { show.tmux.kill() }
        let logind = try await PrivateLogind.start(backlight: show.standIn.path, mode: .slow)
        defer { logind.stop() }
        try await show.showCard(bus: logind.address)
        #expect(await show.raised())
        if let signal {
            kill(try await show.gymcardProcess(), signal)
        } else {
            try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        }
        // Without the wait the status shows while logind still sleeps (1.5 s) and the level is at full.
        try await show.tmux.waitFor(signal == nil ? "status=0" : "status=143")
        #expect(show.current == 37)
    }
}

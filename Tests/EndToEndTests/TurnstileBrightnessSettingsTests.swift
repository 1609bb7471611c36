import Foundation
import TestSupport
import Testing

@Suite(
    "gymcard show: when the backlight is left alone (the switches, files, ssh, no permission)", .serialized)
struct TurnstileBrightnessSettingsTests {
    func writeConfig(_ show: BacklightShow, _ text: String) throws {
        let folder = show.home.path + "/config/gymcard"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/config.json"))
    }

    /// Shows the card, checks that the file is still untouched while it is up (after waiting as long as a
    /// raise takes where it happens), closes it with a key and checks again.
    func expectLeftAlone(
        _ show: BacklightShow, _ arguments: String = "show --id 905123456", exports: String = ""
    )
        async throws
    {
        try await show.showCard(arguments, exports: exports)
        try await expectUntouchedUntilClosed(show)
    }

    /// The shown card leaves the backlight as it was while it stands and after a key closes it, and
    /// nothing is said about it.
    func expectUntouchedUntilClosed(_ show: BacklightShow) async throws {
        // Where it is raised, the guardian has done it within this time in every run of the suite above.
        try await Task.sleep(for: .seconds(1))
        #expect(!show.written && show.current == show.level)
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        try await show.tmux.waitFor("status=0")
        #expect(!show.written && show.current == show.level)
        #expect(try await show.said() == [], "nothing said")
    }

    @Test("--no-brightness", .enabled(if: BacklightShow.canRun))
    func flag() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try await expectLeftAlone(show, "show --id 905123456 --no-brightness")
    }

    @Test("\"show\": { \"brightness\": false } in the config file", .enabled(if: BacklightShow.canRun))
    func configKey() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try writeConfig(show, #"{ "show": { "brightness": false } }"#)
        try await expectLeftAlone(show)
    }

    @Test(
        "\"brightness\": true in the config file raises it as without one", .enabled(if: BacklightShow.canRun)
    )
    func configKeyTrue() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try writeConfig(show, #"{ "show": { "brightness": true } }"#)
        try await show.showCard()
        #expect(await show.raised())
        try await show.tmux.tmux(["send-keys", "-t", show.tmux.name, "x"])
        try await show.tmux.waitFor("status=0")
        #expect(show.current == show.level)
    }

    @Test(
        "a brightness that is not true or false: one line naming the key, 78, before the screen is taken",
        .enabled(if: BacklightShow.canRun))
    func configKeyWrong() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try writeConfig(show, #"{ "show": { "brightness": "no" } }"#)
        try await show.tmux.start(columns: 100, rows: 30, command: show.command("show --id 905123456"))
        try await show.tmux.waitFor("status=78")
        let screen = try await show.tmux.tmux(["capture-pane", "-t", show.tmux.name, "-p", "-J"])
        #expect(screen.contains("show.brightness has the wrong type"), "\(screen)")
        #expect(!show.written)
        // Where no full-screen card is shown, the key is not read: a pipe prints the drawing, exit 0.
        let piped = try await show.gymcard().run(["show", "--id", "905123456"])
        #expect(piped.status == 0, "\(piped.stderr)")
    }

    @Test("--inline, --png, --svg and --qr files never touch it", .enabled(if: BacklightShow.canRun))
    func files() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        let folder = try TemporaryDirectory()
        try await show.tmux.start(
            columns: 100, rows: 30,
            command: show.command(
                "show --id 905123456 --inline; \(GymcardProcess.executable.path) show --id 905123456 "
                    + "--png \(folder.path)/card.png --svg \(folder.path)/card.svg --qr \(folder.path)/qr.png"
            ))
        try await show.tmux.waitFor("status=0")
        #expect(try folder.contents() == ["card.png", "card.svg", "qr.png"])
        #expect(!show.written && show.current == show.level)
    }

    @Test(
        "a remote shell (SSH_CONNECTION) with no logind to ask: left alone, though the file is writable",
        .enabled(if: BacklightShow.canRun))
    func remoteShell() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        try await expectLeftAlone(show, exports: #"export SSH_CONNECTION="192.0.2.1 52000 192.0.2.2 22"; "#)
    }

    @Test(
        "a user who may not write the file, with no logind: left alone, the card shown, nothing said",
        .enabled(if: BacklightShow.canRun))
    func readOnly() async throws {
        let show = try BacklightShow()
        defer { show.tmux.kill() }
        chmod(show.home.path, 0o755)
        let arguments = "show --id 905123456"
        if getuid() == 0 {
            // root may write any file: gymcard runs as nobody, as a user without a udev rule would.
            let setpriv = "/usr/bin/setpriv --reuid=nobody --regid=nogroup --clear-groups "
            try await show.tmux.start(
                columns: 100, rows: 30,
                command: show.command(arguments).replacingOccurrences(
                    of: GymcardProcess.executable.path + " show",
                    with: setpriv + GymcardProcess.executable.path + " show"))
            _ = try await show.tmux.waitForCard(caption: "9051-23456")
            try await expectUntouchedUntilClosed(show)
        } else {
            chmod(show.standIn.path + "/" + show.device + "/brightness", 0o444)
            try await expectLeftAlone(show, arguments)
        }
    }
}

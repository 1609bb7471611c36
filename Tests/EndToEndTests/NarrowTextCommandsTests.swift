import Foundation
import TestSupport
import Testing

/// `trends`, `hours` and `best` in a 40-column tmux pane (a phone in portrait, a tmux split), as a person
/// sees them: no line reaches past the edge for the terminal to wrap.
@Suite("The text commands in a 40-column terminal, through tmux")
struct NarrowTextCommandsTests {
    @Test(
        "trends, hours and best --demo at 40 columns: no line wrapped, the content there",
        .enabled(if: TmuxSession.isAvailable))
    func noLineWraps() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        // A Tuesday 6 PM in Blacksburg; the demo uses no network, and these URLs make sure of it.
        // COLUMNS is unset: the width must come from the terminal itself.
        let commands = ["trends --demo", "hours --demo", "best --demo"].map {
            gymcard.shellCommand($0) + "; echo \"\($0.split(separator: " ")[0])=$?\""
        }
        try await tmux.start(
            columns: 40, rows: 200,
            command: "export GYMCARD_TEST_NOW=2026-11-24T23:00:00Z GYMCARD_OCCUPANCY_URL=http://127.0.0.1:1/ "
                + "GYMCARD_HOURS_URL=http://127.0.0.1:1/; unset COLUMNS; " + commands.joined(separator: "; "))
        try await tmux.waitFor("best=0")
        // -J joins the lines the terminal wrapped: a line longer than the pane is one that wrapped.
        let lines = try await tmux.tmux(["capture-pane", "-t", tmux.name, "-p", "-J", "-S", "-", "-E", "-"])
            .split(separator: "\n").map(String.init)
        let wrapped = lines.filter { $0.trimmingTrailingSpaces.count > 40 }
        #expect(wrapped.isEmpty, "lines the terminal wrapped:\n\(wrapped.joined(separator: "\n"))")
        let screen = lines.joined(separator: "\n")
        #expect(screen.contains("trends=0") && screen.contains("hours=0"), "\(screen)")
        // The heatmap split at noon, the hours of each day, each window with its usual occupancy.
        #expect(lines.contains { $0.hasPrefix("     12    15    18    21") }, "\(screen)")
        #expect(lines.filter { $0.hasPrefix("Tue  ") }.count == 6, "\(screen)")
        #expect(lines.filter { $0.hasPrefix("  Tue, Nov 24  ") }.count == 3, "\(screen)")
        #expect(lines.contains { $0.hasPrefix("    usually ") }, "\(screen)")
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: Substring {
        self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)]
    }
}

import Codabar
import Foundation
import Imaging
import Scanner
import Symbols
import TestSupport
import Testing

@Suite(
    "gymcard show in a real xterm under Xvfb: sixel images at their exact pixel size", .serialized,
    .enabled(
        if: XtermScreen.isAvailable || XtermScreen.mustRun,
        "needs Xvfb, xterm, xwd and the pinned fonts (scripts/install-system-packages)"))
struct TurnstileXtermTests {
    func command(_ home: TemporaryDirectory, _ arguments: String) -> String {
        // An xterm is not inside tmux, even when the tests run in one.
        "unset TMUX; " + GymcardProcess(home: home.path).shellCommand(arguments)
    }

    /// The dark/light pattern along the middle row of the barcode, from its first dark pixel to its last.
    static func symbolRow(_ image: GrayImage) -> [Bool] {
        // The row with the most dark-light changes crosses the bars.
        var best: [Bool] = []
        var bestChanges = 0
        // Light means the image's white (a dark theme's background is below 128 too).
        for y in stride(from: 0, to: image.height, by: 4) {
            let row = (0..<image.width).map { image.pixels[y * image.width + $0] < 128 }
            let changes = zip(row, row.dropFirst()).filter { $0 != $1 }.count
            if changes > bestChanges {
                bestChanges = changes
                best = row
            }
        }
        // Inside the white quiet zones (the terminal's background around them is dark too).
        guard let whiteStart = best.firstIndex(of: false), let whiteEnd = best.lastIndex(of: false),
            let first = best[whiteStart...whiteEnd].firstIndex(of: true),
            let last = best[whiteStart...whiteEnd].lastIndex(of: true)
        else { return [] }
        return Array(best[first...last])
    }

    @Test(
        "xterm -ti vt340: the probe finds sixel, the Codabar scans from the screenshot, each bar a whole number of pixels"
    )
    func sixelCodabar() async throws {
        try XtermScreen.requirePrerequisites()
        let home = try TemporaryDirectory()
        let screen = try await XtermScreen.start()
        // --timeout 0: only a key closes it, so a late screenshot on a loaded machine still finds it (a
        // fresh-clone run beside other work missed a card shown for 20 s).
        let window = try await screen.open(
            vt340: true, command: command(home, "show --id 905123456 --timeout 0"), directory: home.path)
        let (decoded, image) = try await screen.waitForSymbols(window, after: "9051-23456")
        #expect(decoded == ["A905123456B"])
        let row = Self.symbolRow(image)
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let exact = (1...32).contains { narrow in
            let drawn = CodabarLayout.standard.row(of: symbol, narrowWidth: narrow)
            guard let first = drawn.firstIndex(of: true), let last = drawn.lastIndex(of: true) else {
                return false
            }
            return Array(drawn[first...last]) == row
        }
        #expect(
            exact,
            "the screenshot's bars are the layout at a whole number of pixels: a sixel image, not blocks")
    }

    @Test(
        "xterm -ti vt340: the timeout closes the card with status 0, and nothing of it is left on the screen")
    func sixelTimeout() async throws {
        try XtermScreen.requirePrerequisites()
        let home = try TemporaryDirectory()
        let screen = try await XtermScreen.start()
        let ended = home.path + "/ended"
        _ = try await screen.open(
            vt340: true, command: command(home, "show --id 905123456 --timeout 2") + "; echo $? > \(ended)",
            directory: home.path)
        // The end is waited for, not a time: a loaded machine may start gymcard late.
        let deadline = Date().addingTimeInterval(300)
        while !FileManager.default.fileExists(atPath: ended), Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        let status = try String(contentsOfFile: ended, encoding: .utf8)
        #expect(status == "0\n")
        let after = try await screen.screenshot()
        #expect(
            await OffThePool.compute { ZBarReader().decode(after).isEmpty }, "nothing left after the timeout")
    }

    @Test(
        "xterm -ti vt340 at 40×40: the sixel image is turned a quarter (more pixels per module than across), each module whole pixels, and it scans"
    )
    func sixelTurned() async throws {
        try XtermScreen.requirePrerequisites()
        let home = try TemporaryDirectory()
        let screen = try await XtermScreen.start()
        // --timeout 0: only a key closes it, so a late screenshot on a loaded machine still finds it.
        let window = try await screen.open(
            vt340: true, command: command(home, "show --id 905123456 --timeout 0"), size: "40x40",
            directory: home.path)
        let (decoded, image) = try await screen.waitForSymbols(window, after: "9051-23456")
        #expect(decoded == ["A905123456B"])
        // Down the column that crosses the most bars (the caption's light text may follow the image in
        // it): from the first bar, the layout at a whole number of pixels per module, then light.
        let turned = image.transposed()
        var column: [Bool] = []
        for y in stride(from: 0, to: turned.height, by: 4) {
            let line: [Bool] = (0..<turned.width).map { turned.pixels[y * turned.width + $0] < 128 }
            if changes(line) > changes(column) { column = line }
        }
        var start = 0
        if let light = column.firstIndex(of: false), let bar = column[light...].firstIndex(of: true) {
            start = bar
        }
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let exact = (1...32).contains { narrow in
            let drawn = CodabarLayout.standard.row(of: symbol, narrowWidth: narrow)
            guard let first = drawn.firstIndex(of: true), let last = drawn.lastIndex(of: true) else {
                return false
            }
            let bars = Array(drawn[first...last])
            return start + bars.count < column.count && Array(column[start..<(start + bars.count)]) == bars
                && !column[start + bars.count]
        }
        #expect(exact, "the bars run across the screen, each module a whole number of pixels")
    }

    /// Dark-light changes along a line of pixels.
    func changes(_ line: [Bool]) -> Int { zip(line, line.dropFirst()).filter { $0 != $1 }.count }

    @Test("xterm -ti vt340: the QR code the same way")
    func sixelQR() async throws {
        try XtermScreen.requirePrerequisites()
        let home = try TemporaryDirectory()
        let screen = try await XtermScreen.start()
        let window = try await screen.open(
            vt340: true, command: command(home, "show --id 905123456 --qr --timeout 0"), directory: home.path)
        let (decoded, _) = try await screen.waitForSymbols(window, after: "9051-23456")
        #expect(decoded == ["A905123456B"])
    }

    @Test("plain xterm (no sixel): the probe falls back to blocks, which scan too")
    func blocksInPlainXterm() async throws {
        try XtermScreen.requirePrerequisites()
        let home = try TemporaryDirectory()
        let screen = try await XtermScreen.start()
        let window = try await screen.open(
            vt340: false, command: command(home, "show --id 905123456 --timeout 0"), directory: home.path)
        let (decoded, _) = try await screen.waitForSymbols(window, after: "9051-23456")
        #expect(decoded == ["A905123456B"])
    }
}

import Foundation
import Imaging
import Scanner
import Symbologies
import TestSupport
import Testing

/// The card you draw is the card every reader reads, on terminals (issue 38): a sample of the generated
/// space (``CardSpace``: two cards of each symbology, in tmux at four window sizes, inline and full screen;
/// one of each in xterm's sixel) drawn by the built `gymcard show`, captured as a person sees it, and read
/// by gymcard's own cascade to the exact text and symbology. Where the barcode fits neither across nor
/// turned, the screen says that its QR code stands in, and the QR code must hold the exact text.
@Suite("Every card, every reader: tmux blocks and xterm sixel over a sample of the space", .serialized)
struct TerminalRoundTripTests {
    static let sizes: [(columns: Int, rows: Int)] = [(80, 24), (120, 40), (200, 60), (60, 30)]

    /// Two cards of a symbology that gymcard does not say will not scan.
    static func sample(_ symbology: Symbology) -> [DrawnCard] {
        Array(CardSpace.cards(symbology, count: 12).dropFirst(2).filter { !$0.isSaidNotToScan }.prefix(2))
    }

    /// What a drawing on screen reads as, by gymcard's whole cascade (both engines).
    static func read(_ image: GrayImage) async -> [BarcodeContent] {
        await OffThePool.compute {
            BarcodeScanner().scan(image).findings.compactMap {
                BarcodeContent(read: $0.symbology, text: $0.text)
            }
        }
    }

    /// The rasterized drawing with light all round, as a light screen shows it: the lines taken from the
    /// capture start and end with the first and last that hold a dark cell, which leaves out a 2D symbol's
    /// margin rows above and below (white cells, no marks).
    static func onLightScreen(_ image: GrayImage) -> GrayImage {
        let border = 44
        var padded = GrayImage(
            width: image.width + 2 * border, height: image.height + 2 * border, filledWith: 255)
        for y in 0..<image.height {
            for x in 0..<image.width { padded[border + x, border + y] = image[x, y] }
        }
        return padded
    }

    /// What the drawing must read as: the card, or its QR code where the screen says it stands in.
    static func expected(_ card: DrawnCard, screen: String) throws -> (Symbology, [Unicode.Scalar]) {
        let content = try card.content()
        let standsIn = screen.replacingOccurrences(of: "\n", with: " ").contains("this is its QR code")
        return (standsIn ? .qr : content.symbology, Array(content.text.unicodeScalars))
    }

    /// `gymcard show` of the card's text, the text read from a file so that no shell quoting is needed.
    static func showCommand(_ card: DrawnCard, home: TemporaryDirectory, extra: String) throws -> String {
        let idFile = home.path + "/id-\(card.index).txt"
        try Data(card.typed.utf8).write(to: URL(fileURLWithPath: idFile))
        let check = card.settings.checkCharacter ? " --check-digit" : ""
        return "echo ready; "
            + GymcardProcess(home: home.path).shellCommand(
                "show --id=\"$(cat '\(idFile)')\" --symbology \(card.symbology.name)\(check) \(extra)")
            + "; echo status=$?"
    }

    @Test(
        "in tmux, inline and full screen at four sizes: the blocks read back exactly",
        .enabled(if: Prerequisite.runs(TmuxSession.isAvailable)), arguments: CardSpace.symbologies)
    func tmuxBlocks(_ symbology: Symbology) async throws {
        for (number, card) in Self.sample(symbology).enumerated() {
            let home = try TemporaryDirectory()
            let size = Self.sizes[(card.index + number) % Self.sizes.count]
            let inline = number % 2 == 0
            let tmux = TmuxSession()
            defer { tmux.kill() }
            try await tmux.start(
                columns: size.columns, rows: size.rows,
                command: try Self.showCommand(card, home: home, extra: inline ? "--inline" : "--timeout 60"))
            let lines: [String]
            let text: String
            if inline {
                try await tmux.waitFor("status=")
                let history = try await tmux.tmux(["capture-pane", "-t", tmux.name, "-p", "-e", "-S", "-"])
                lines = history.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                text = try await tmux.tmux(["capture-pane", "-t", tmux.name, "-p", "-J", "-S", "-"])
            } else {
                let capture = try await tmux.waitForCapture { capture in
                    drawingLines(capture.escaped).count >= 5 && capture.text.contains("any key closes")
                }
                lines = capture.escaped
                text = capture.flowing
                try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
            }
            let (symbologyMeant, textMeant) = try Self.expected(card, screen: text)
            let reads = await Self.read(Self.onLightScreen(rasterize(drawingLines(lines))))
            let where_ = "\(inline ? "inline" : "full screen") \(size.columns)x\(size.rows), \(card)"
            #expect(reads.count == 1, "\(where_): read \(reads.count) IDs")
            #expect(reads.first?.symbology == symbologyMeant, "\(where_): \(reads.map(\.symbology))")
            #expect(reads.first.map { Array($0.text.unicodeScalars) } == textMeant, "\(where_)")
        }
    }

    @Test(
        "in xterm -ti vt340, full screen: the sixel image reads back exactly",
        .enabled(if: Prerequisite.runs(XtermScreen.isAvailable)))
    func xtermSixel() async throws {
        if XtermScreen.mustRun { try XtermScreen.requirePrerequisites() }
        let screen = try await XtermScreen.start()
        for symbology in CardSpace.symbologies {
            guard let card = Self.sample(symbology).first else { continue }
            let home = try TemporaryDirectory()
            let window = try await screen.open(
                vt340: true, command: try Self.showCommand(card, home: home, extra: "--timeout 60"),
                directory: home.path)
            defer { screen.close(window) }
            var reads: [BarcodeContent] = []
            let deadline = Date().addingTimeInterval(60)
            var log = ""
            while reads.isEmpty, Date() < deadline {
                log = String(
                    decoding: FileManager.default.contents(atPath: window.log) ?? Data(), as: UTF8.self)
                if log.contains("any key closes") {
                    reads = await Self.read(try await screen.screenshot(window))
                }
                if reads.isEmpty { try await Task.sleep(for: .milliseconds(300)) }
            }
            let (symbologyMeant, textMeant) = try Self.expected(card, screen: log)
            #expect(
                log.contains("\u{1B}P"),
                "\(card): no sixel image was sent; xterm \(window.process.hasEnded ? "ended" : "runs"), said '\(String(decoding: window.process.standardErrorSoFar, as: UTF8.self))', log of \(log.utf8.count) bytes"
            )
            #expect(reads.count == 1, "\(card): read \(reads.count) IDs")
            #expect(reads.first?.symbology == symbologyMeant, "\(card): \(reads.map(\.symbology))")
            #expect(reads.first.map { Array($0.text.unicodeScalars) } == textMeant, "\(card)")
        }
    }
}

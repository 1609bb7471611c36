import Foundation
import TestSupport
import Testing

/// `gymcard scan` prints what the barcode is: its symbology as read, its text exactly (through the
/// character set its ECI names), and never one of several cards chosen in silence. Symbols made by
/// Debian's qrencode and zint, photos put together with ImageMagick.
@Suite("gymcard scan: a card is what its barcode is")
struct ScanReadsWhatItIsTests {
    static func tool(_ name: String, _ arguments: [String]) async throws {
        try await ScanFormatTests.tool(name, arguments)
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(
        "a QR code holding nine digits is a QR card; --save stores it as such and says how to make it Codabar"
    )
    func nineDigitQR() async throws {
        let home = try TemporaryDirectory()
        let photo = home.path + "/q.png"
        try await Self.tool("qrencode", ["-s", "6", "-o", photo, "905123456"])
        let gymcard = GymcardProcess(home: home.path)

        let read = try await gymcard.run(["scan", "--json", photo], timeoutSeconds: 600)
        #expect(read.status == 0)
        let line = try #require(try Self.json(read.stdoutText).first)
        #expect(line["symbology"] as? String == "qr")
        #expect(line["id"] as? String == "905123456")

        let saved = try await gymcard.run(["scan", "--save", "--no-passphrase", photo], timeoutSeconds: 600)
        #expect(saved.status == 0)
        #expect(saved.stdoutText == "905123456\n")
        #expect(saved.stderr.contains("gymcard scan PHOTO | gymcard set --symbology codabar"))
        let card = try await gymcard.run(["card", "--json"])
        #expect(try Self.json(card.stdoutText).first?["symbology"] as? String == "qr")

        // The deliberate act: the same ID, as the Codabar card.
        let codabar = try await gymcard.run(
            ["set", "--symbology", "codabar", "--no-passphrase"], input: Data("905123456\n".utf8))
        #expect(codabar.status == 0)
        let stored = try Self.json(try await gymcard.run(["card", "--json"]).stdoutText).first
        #expect(stored?["symbology"] as? String == "codabar")
        #expect(stored?["id"] as? String == "A905123456B")
    }

    @Test(
        "texts a 2D card holds read back exactly: colons without a URI scheme, Latin-1 and UTF-8 without an ECI, UTF-8 and Greek under theirs",
        arguments: [
            (["-b", "QRCODE"], Array("GYM:FITNESS-PLUS:000417".utf8), "GYM:FITNESS-PLUS:000417"),
            (["-b", "QRCODE", "--binary"], [0xC4, 0x62], "Äb"),
            (
                ["-b", "DATAMATRIX", "--binary"], [0xC4, 0xD6, 0xDC, 0x20, 0x64, 0x61, 0x74, 0x61], "ÄÖÜ data"
            ),
            (["-b", "QRCODE", "--binary"], Array("Käse 中".utf8), "Käse 中"),
            (["-b", "DATAMATRIX", "--eci=26"], Array("€uro ÄÖÜ".utf8), "€uro ÄÖÜ"),
            (["-b", "QRCODE", "--eci=9"], Array("€uro".utf8), "€uro"),
            (["-b", "AZTEC", "--eci=3"], Array("Käseschnitte".utf8), "Käseschnitte"),
            (["-b", "PDF417", "--eci=26"], Array("€uro".utf8), "€uro"),
            // libzbar hands back the raw bytes of an ECI it has no table for, and of a Kanji segment: those
            // QR codes read as zxing-cpp reads them (a tester's: Привет under ECI 22 printed as Ïðèâåò).
            (["-b", "QRCODE", "--eci=22"], Array("Привет".utf8), "Привет"),
            (["-b", "QRCODE", "--eci=28"], Array("健身房".utf8), "健身房"),
            (["-b", "QRCODE"], Array("会員番号12345".utf8), "会員番号12345"),
            // zint draws a Data Matrix, an Aztec and a QR code with no quiet zone unless asked.
            (["-b", "DATAMATRIX", "--noquietzones"], Array("GYM0042".utf8), "GYM0042"),
        ] as [([String], [UInt8], String)])
    func exactText(zint: [String], data: [UInt8], text: String) async throws {
        let home = try TemporaryDirectory()
        let input = home.path + "/data.bin"
        try Data(data).write(to: URL(fileURLWithPath: input))
        let photo = home.path + "/symbol.png"
        // --binary: the bytes as they are, with no ECI (an encoder that writes Latin-1 or UTF-8 bare);
        // otherwise zint reads the file as UTF-8 and writes it in the ECI's character set.
        let quiet = zint.contains("--noquietzones") ? [] : ["--quietzones"]
        try await Self.tool("zint", ["--scale=4", "--input=" + input, "-o", photo] + quiet + zint)
        let read = try await GymcardProcess(home: home.path).run(["scan", photo], timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(Array(read.stdoutText.unicodeScalars) == Array((text + "\n").unicodeScalars))
    }

    @Test(
        "a code that is no member ID is named as what it is: a web address in any 2D code, control characters",
        arguments: [
            (
                ["-b", "DATAMATRIX", "-d", "https://gym.example/m/123"],
                "found a Data Matrix with a web address"
            ),
            (["-b", "AZTEC", "-d", "https://gym.example/m/123"], "found an Aztec Code with a web address"),
            (["-b", "PDF417", "-d", "https://gym.example/m/123"], "found a PDF417 with a web address"),
            (["-b", "QRCODE", "-d", "mailto:desk@gym.example"], "found a QR code that is not a member ID"),
            (
                ["-b", "CODE128", "--esc", "-d", "AB\\tCD"],
                "found a Code 128 whose text holds control characters"
            ),
            // One symbol of a message split across several (Structured Append) holds a part of it: a
            // tester's such QR code printed its part as the card's ID.
            (
                ["-b", "QRCODE", "--structapp=1,2,7", "-d", "GYM-000417"],
                "found a QR code that is part 1 of 2"
            ),
            (
                ["-b", "AZTEC", "--structapp=2,3", "-d", "GYM-000417"],
                "found an Aztec Code that is part 2 of 3"
            ),
            (["-b", "PDF417", "--structapp=1,2", "-d", "GYM-000417"], "found a PDF417 that is part 1 of 2"),
            (
                ["-b", "DATAMATRIX", "--structapp=1,2,001002", "-d", "GYM-000417"],
                "found a Data Matrix that is part 1 of 2"
            ),
        ] as [([String], String)])
    func notAnID(zint: [String], words: String) async throws {
        let home = try TemporaryDirectory()
        let photo = home.path + "/symbol.png"
        try await Self.tool("zint", ["--scale=4", "--quietzones", "-o", photo] + zint)
        let read = try await GymcardProcess(home: home.path).run(["scan", photo], timeoutSeconds: 600)
        #expect(read.status == 1)
        #expect(read.stdout.isEmpty)
        #expect(read.stderrLines.count == 1 && read.stderr.contains(words), "\(read.stderr)")
    }

    /// Every symbology drawn light on dark (zint's symbol negated with ImageMagick, as a phone in dark mode
    /// or a negated print shows it): read exactly by the last stages, which look at the photo inverted. A
    /// tester's negated Codabar and QR code read nothing before. The longest budget, so that a debug build
    /// on a loaded machine still reaches libzbar's last stage.
    @Test(
        "a symbol light on dark reads as its own text, in every symbology",
        arguments: [
            ("CODABAR", "A40156B", "A40156B"), ("CODE39", "MEMBER-4471", "MEMBER-4471"),
            ("CODE93", "CARD93-X", "CARD93-X"), ("CODE128", "GYM-000417", "GYM-000417"),
            ("C25INTER", "00123456", "00123456"), ("EANX", "400638133393", "4006381333931"),
            ("EANX", "9638507", "96385074"), ("UPCA", "06672101718", "066721017185"),
            ("UPCE", "0123456", "01234565"), ("QRCODE", "GYM:FITNESS-PLUS:000417", "GYM:FITNESS-PLUS:000417"),
            ("DATAMATRIX", "DM-CARD-9981", "DM-CARD-9981"), ("AZTEC", "AZ-905123456", "AZ-905123456"),
            ("PDF417", "PDF-905123456", "PDF-905123456"),
        ] as [(String, String, String)])
    func inverted(zint: String, data: String, text: String) async throws {
        let home = try TemporaryDirectory()
        let drawn = home.path + "/drawn.png"
        let photo = home.path + "/inverted.png"
        try await Self.tool("zint", ["--scale=3", "--quietzones", "-b", zint, "-d", data, "-o", drawn])
        try await Self.tool("convert", [drawn, "-negate", photo])
        let read = try await GymcardProcess(home: home.path).run(
            ["scan", "--budget", "60", photo], timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdoutText == text + "\n")
    }

    /// libdmtx (the last stages, which read a Data Matrix light on dark that zxing-cpp's looks miss)
    /// returns a GS1 symbol's text without its FNC1 separators: a tester's inverted zint symbol holding
    /// `10AB12<GS>17250101` printed `10AB1217250101` with exit 0. Such a symbol is refused; the same text
    /// without GS1, drawn the same way, is read exactly (so the refusal is the rule's, not a symbol it
    /// cannot see), now by zxing-cpp's look at the inverted image or else by libdmtx.
    @Test(
        "a Data Matrix light on dark is read by libdmtx exactly, or not at all when libdmtx would drop its GS1 separators",
        arguments: [
            (["--gs1", "-d", "[10]AB12[17]250101"], nil),
            (["-d", "10AB1217250101"], "10AB1217250101"),
        ] as [([String], String?)])
    func lightOnDark(zint: [String], text: String?) async throws {
        let home = try TemporaryDirectory()
        let symbol = home.path + "/symbol.png"
        let photo = home.path + "/inverted.png"
        try await Self.tool("zint", ["-b", "71", "--scale=4", "-o", symbol] + zint)
        try await Self.tool(
            "convert", [symbol, "-bordercolor", "white", "-border", "10%", "-negate", "PNG24:" + photo])
        let read = try await GymcardProcess(home: home.path).run(
            ["scan", "--json", photo], timeoutSeconds: 600)
        if let text {
            #expect(read.status == 0, "\(read.stderr)")
            let line = try #require(try Self.json(read.stdoutText).first)
            #expect(line["id"] as? String == text)
            // The inverted image's look by zxing-cpp comes first now; libdmtx reads it where that misses.
            let stage = line["stage"] as? String ?? ""
            #expect(stage.hasPrefix("dmtx") || stage == "zxing inverted", "\(line)")
        } else {
            #expect(read.status != 0)
            #expect(!read.stdoutText.contains("10AB1217250101"), "\(read.stdoutText)")
        }
    }

    @Test("a 2D card holding a web address is drawn with a line that says scan will not take it for an ID")
    func addressSaid() async throws {
        let home = try TemporaryDirectory()
        let shown = try await GymcardProcess(home: home.path).run(
            ["show", "--id", "https://gym.example/m/123", "--symbology", "qr", "--png", home.path + "/q.png"])
        #expect(shown.status == 0)
        #expect(shown.stderr.contains("which gymcard scan takes for a poster's code, not a member ID"))
    }

    @Test("a QR code whose bytes are not the UTF-8 it says (ECI 26) prints nothing: one line, exit 65")
    func undecodableText() async throws {
        let home = try TemporaryDirectory()
        let data = home.path + "/bad.bin"
        try Data([0x61, 0x62, 0xFF, 0xFE, 0x63, 0x64]).write(to: URL(fileURLWithPath: data))
        let photo = home.path + "/bad.png"
        try await Self.tool("zint", ["-b", "QRCODE", "--eci=26", "--binary", "--input=" + data, "-o", photo])
        let read = try await GymcardProcess(home: home.path).run(["scan", photo], timeoutSeconds: 600)
        #expect(read.status == 65)
        #expect(read.stdout.isEmpty)
        #expect(
            read.stderrLines == [
                "gymcard: \(photo): found a QR Code whose bytes are not the UTF-8 text it says they are (ECI 26): "
                    + "nothing was printed; the code may be damaged, or made by a faulty encoder"
            ])
    }

    /// A photo of two cards: a Codabar and a Code 128 drawn by zint with their quiet zones, one above the
    /// other on a grey desk.
    static func twoCards(in directory: String) async throws -> String {
        for (symbology, text, file) in [("CODABAR", "A111222333B", "one"), ("CODE128", "GYM-0042", "two")] {
            try await tool(
                "zint",
                ["-b", symbology, "--scale=3", "--quietzones", "-d", text, "-o", directory + "/\(file).png"])
        }
        let photo = directory + "/two-cards.jpg"
        try await ScanFormatTests.tool(
            "convert",
            [
                directory + "/one.png", directory + "/two.png", "-background", "white", "-splice", "0x60",
                "-append", "-bordercolor", "rgb(120,120,110)", "-border", "80", "-quality", "92", photo,
            ])
        return photo
    }

    @Test("two cards in one photo: the first is printed and a line says there is another; --all lists both")
    func twoCardsSaid() async throws {
        let home = try TemporaryDirectory()
        let photo = try await Self.twoCards(in: home.path)
        let gymcard = GymcardProcess(home: home.path)
        let plain = try await gymcard.run(["scan", photo], timeoutSeconds: 600)
        #expect(plain.status == 0)
        #expect(plain.stdoutText == "A111222333B\n")
        #expect(
            plain.stderrLines == [
                "gymcard: \(photo) holds 2 different IDs (Codabar, Code 128); the first is printed: "
                    + "gymcard scan --all lists them"
            ])
        let all = try await gymcard.run(["scan", "--all", photo], timeoutSeconds: 600)
        #expect(all.stdoutText == "A111222333B\nGYM-0042\n")
        #expect(all.stderr.isEmpty)
    }

    @Test(
        "scan --save of two cards with no terminal stores nothing, prints both and exits 64; the card is unharmed"
    )
    func twoCardsNotSaved() async throws {
        let home = try TemporaryDirectory()
        let photo = try await Self.twoCards(in: home.path)
        let gymcard = GymcardProcess(home: home.path)
        _ = try await gymcard.run(["set", "--no-passphrase", "905123456"])
        let before = try await gymcard.run(["card", "--json"])
        let saved = try await gymcard.run(["scan", "--save", "--no-passphrase", photo], timeoutSeconds: 600)
        #expect(saved.status == 64)
        #expect(saved.stdoutText == "A111222333B\nGYM-0042\n")
        #expect(
            saved.stderrLines == [
                "gymcard: \(photo) holds 2 different IDs (listed above: Codabar, Code 128); nothing was stored: "
                    + "run on a terminal to choose, or store one with `gymcard set --symbology <name>` (it reads "
                    + "the ID from standard input)"
            ])
        #expect(try await gymcard.run(["card", "--json"]).stdoutText == before.stdoutText)

        // Nor is a later photo's ID stored in its place (a tester's: exit 64, "nothing was stored", and the
        // card replaced by the next photo's).
        let one = home.path + "/one.png"
        let both = try await gymcard.run(
            ["scan", "--save", "--no-passphrase", photo, one], timeoutSeconds: 600)
        #expect(both.status == 64)
        #expect(both.stdoutText == "\(photo): A111222333B\n\(photo): GYM-0042\n\(one): A111222333B\n")
        #expect(try await gymcard.run(["card", "--json"]).stdoutText == before.stdoutText)
    }

    @Test(
        "scan --save of two cards on a terminal asks which, asks again after a number not on the list, and stores the one chosen",
        .enabled(if: TmuxSession.isAvailable))
    func twoCardsChosen() async throws {
        let home = try TemporaryDirectory()
        let photo = try await Self.twoCards(in: home.path)
        let gymcard = GymcardProcess(home: home.path)
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(
            columns: 160, rows: 30,
            command: gymcard.shellCommand("scan --save --no-passphrase '\(photo)'") + "; echo status=$?")
        try await tmux.waitFor("Which one to store?")
        let listed = try await tmux.screen().joined(separator: "\n")
        #expect(listed.contains("1. 1112-22333 (Codabar)"))
        #expect(listed.contains("2. GYM-0042 (Code 128)"))
        try await tmux.tmux(["send-keys", "-t", tmux.name, "7", "Enter"])
        try await tmux.waitFor("give a number from 1 to 2 (7 is not on the list)")
        try await tmux.tmux(["send-keys", "-t", tmux.name, "2", "Enter"])
        try await tmux.waitFor("status=0")
        let stored = try Self.json(try await gymcard.run(["card", "--json"]).stdoutText).first
        #expect(stored?["symbology"] as? String == "code128")
        #expect(stored?["id"] as? String == "GYM-0042")
    }

    /// libzbar drops FNC4 and the high bit after it (issue 39): zint's Code 128 of `óóóó1234óóabózz` read as
    /// `ssss1234ssabszz`, printed with exit 0. zxing-cpp's read of the same image stands for libzbar's;
    /// such a text is no card gymcard keeps, and is said as what it is.
    @Test("a Code 128 with Latin-1 through FNC4 is never printed with its high bits dropped")
    func fnc4() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        // The text, and generated ones: ASCII and Latin-1 letters mixed, one to a dozen of each.
        var generator = SeededGenerator(seed: 128)
        let ascii = Array("0123456789ABCDEFabcdef-")
        let latin1 = Array("àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿÀÉÖÜß")
        var texts = ["óóóó1234óóabózz"]
        for _ in 0..<4 {
            texts.append(
                String(
                    (0..<Int.random(in: 2...12, using: &generator)).map { index in
                        (index == 0 || Bool.random(using: &generator) ? latin1 : ascii)
                            .randomElement(using: &generator) ?? "é"
                    }))
        }
        for (index, text) in texts.enumerated() {
            let photo = home.path + "/fnc4-\(index).png"
            try await Self.tool("zint", ["-b", "20", "--scale=2", "-o", photo, "-d", text])
            let read = try await gymcard.run(["scan", photo], timeoutSeconds: 600)
            #expect(read.status != 0, "\(text)")
            #expect(read.stdoutText.isEmpty, "\(text): \(read.stdoutText)")
            #expect(
                read.stderr.contains("Code 128 holding characters beyond ASCII"), "\(text): \(read.stderr)")
            #expect(read.stderr.split(separator: "\n").count == 1)
            // Listed, it is its exact text, not an ID.
            let all = try await gymcard.run(["scan", "--all", "--json", photo], timeoutSeconds: 600)
            let line = try #require(try Self.json(all.stdoutText).first)
            #expect(line["text"] as? String == text && line["id"] == nil, "\(text): \(all.stdoutText)")
        }
    }

    /// Code 39 in full-ASCII form (zint's Code 39 Extended of `12ab`) holds the pairs `12+A+B` (issue 39).
    /// A card stores the pairs, as read: its redrawn bars (plain Code 39 of the pairs) are the very bars of
    /// the full-ASCII symbol, and Catima, whose ZXing reads Code 39 without full-ASCII mode, shows the same
    /// text. Over generated texts with lowercase letters: the scan prints the pairs, and zint's plain Code 39
    /// of them is its full-ASCII symbol, module for module.
    @Test("a full-ASCII Code 39 reads as its pairs, whose plain Code 39 is the same symbol")
    func fullASCIICode39() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        var generator = SeededGenerator(seed: 39)
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        for index in 0..<6 {
            let length = Int.random(in: 2...10, using: &generator)
            var text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            if !text.contains(where: \.isLowercase) { text += "z" }
            let pairs = text.map { $0.isLowercase ? "+" + $0.uppercased() : String($0) }.joined()
            let photo = home.path + "/\(index).png"
            try await Self.tool("zint", ["-b", "9", "--scale=2", "-o", photo, "-d", text])
            let read = try await gymcard.run(["scan", photo], timeoutSeconds: 600)
            #expect(read.status == 0 && read.stdoutText == pairs + "\n", "\(text): \(read.stdoutText)")
            let extended = try await ChildProcess.run("/usr/bin/zint", ["-b", "9", "--dump", "-d", text])
            let plain = try await ChildProcess.run("/usr/bin/zint", ["-b", "8", "--dump", "-d", pairs])
            #expect(extended.status == 0 && extended.stdout == plain.stdout, "\(text) and \(pairs)")
        }
    }
}

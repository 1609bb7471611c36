import Foundation
import Imaging
import Scanner
import Symbologies
import TestSupport
import Testing

/// Cards of every symbology through the built binary: set, card, show, render, scan --save.
@Suite("gymcard with any symbology, end to end")
struct SymbologyCommandTests {
    /// A card text per symbology as typed, and as stored and read back (EAN/UPC with the check digit).
    static let cards: [(symbology: String, typed: String, exact: String)] = [
        ("codabar", "9051-23456", "A905123456B"),
        ("codabar", "C12-345:678/90D", "C12-345:678/90D"),
        ("code39", "gym-0042", "GYM-0042"),
        ("code93", "Gym0042", "Gym0042"),
        ("code128", "GYM0042a/7 x", "GYM0042a/7 x"),
        ("itf", "12345678", "12345678"),
        ("ean8", "9638507", "96385074"),
        ("ean13", "4006381333931", "4006381333931"),
        ("upca", "03600029145", "036000291452"),
        ("upce", "0123456", "01234565"),
        ("qr", "MEMBER 12345", "MEMBER 12345"),
        ("pdf417", "MEMBER-12345", "MEMBER-12345"),
        ("datamatrix", "MEMBER-12345", "MEMBER-12345"),
        ("aztec", "MEMBER-12345", "MEMBER-12345"),
    ]

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "set --symbology stores the exact text; card says the symbology; show draws it; scan reads it back",
        arguments: cards)
    func roundTrip(symbology: String, typed: String, exact: String) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let set = try await gymcard.run(
            ["set", "--symbology", symbology, "--no-passphrase"], input: Data((typed + "\n").utf8))
        #expect(set.status == 0, "\(set.stderr)")
        let card = try Self.json(try await gymcard.run(["card", "--json"]).stdoutText)
        #expect(card["symbology"] as? String == symbology)
        #expect(card["id"] as? String == exact)
        let png = home.path + "/card.png"
        let show = try await gymcard.run(["show", "--png", png])
        #expect(show.status == 0, "\(show.stderr)")
        // The same drawing as --id with --symbology.
        let byID = try await gymcard.run(["show", "--id", typed, "--symbology", symbology, "--png", "-"])
        #expect(byID.stdout == (try Data(contentsOf: URL(fileURLWithPath: png))))
        let scan = try await gymcard.run(["scan", "--json", "--budget", "30", png])
        #expect(scan.status == 0, "\(scan.stderr)")
        let read = try Self.json(scan.stdoutText)
        #expect(read["id"] as? String == exact)
        #expect(read["symbology"] as? String == symbology)
        // The SVG and the terminal too.
        #expect(try await gymcard.run(["show", "--svg", home.path + "/card.svg"]).status == 0)
        let terminal = try await gymcard.run(["show", "--no-color"])
        #expect(terminal.status == 0 && terminal.stdoutText.contains("█"), "\(terminal.stderr)")
    }

    @Test(
        "an ID the symbology cannot carry is refused with the character, its position and what it accepts",
        arguments: [
            (
                "ean13", "40063813339A",
                "gymcard: invalid ID: 'A' at position 12 cannot be encoded in EAN-13; use 12 digits, or 13 with the check digit"
            ),
            (
                "ean13", "4006381333932",
                "gymcard: invalid ID: '2' at position 13 is not the EAN-13 check digit of the digits before it (that is 1); check the number, or leave the check digit out and gymcard adds it"
            ),
            (
                "itf", "12345",
                "gymcard: invalid ID: the ID has 5 digits; Interleaved 2 of 5 takes digits, an even number of them"
            ),
            (
                "code39", "GYM_42",
                "gymcard: invalid ID: '_' at position 4 cannot be encoded in Code 39; use digits, capital letters A-Z, space and - . $ / + %"
            ),
            (
                "codabar", "12A34",
                "gymcard: invalid ID: 'A' at position 3 is a start/stop letter and may only be the first or last character"
            ),
        ])
    func refusals(symbology: String, id: String, message: String) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let show = try await gymcard.run(["show", "--id", id, "--symbology", symbology, "--png", "-"])
        #expect(show.status == 65)
        #expect(show.stdout.isEmpty)
        #expect(show.stderrLines == [message])
        let set = try await gymcard.run(
            ["set", "--symbology", symbology, "--no-passphrase"], input: Data((id + "\n").utf8))
        #expect(set.status == 65)
        #expect(set.stderrLines == [message])
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/gymcard/card.json"))
    }

    @Test("options that do not fit the symbology are usage errors, and an unknown name lists the names")
    func usage() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let check = try await gymcard.run(
            ["show", "--id", "GYM1", "--symbology", "code128", "--check-digit", "--png", "-"])
        #expect(check.status == 64)
        #expect(
            check.stderrLines == ["gymcard: --check-digit is for Codabar, and the ID is drawn as Code 128"])
        let unknown = try await gymcard.run([
            "render", "--symbology", "maxicode", "--batch", "-", "--out", "x",
        ])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.contains(
                "unknown symbology 'maxicode'; use one of codabar, code39, code93, code128, itf, ean8, ean13, upca, upce, qr, pdf417, datamatrix, aztec"
            ))
        let stored = try await gymcard.run(["show", "--symbology", "code128", "--png", "-"])
        #expect(stored.status == 64)
        #expect(
            stored.stderrLines == [
                "gymcard: --symbology is for --id: the stored card is drawn in its own symbology"
            ])
    }

    @Test("render --batch --symbology: one file per ID, named safely, each reading back; a bad line is 65")
    func batch() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let out = home.path + "/out"
        let ids = "GYM0042\nGYM/42\n# a comment\nGYM%42\nÅ42\n"
        let render = try await gymcard.run(
            ["render", "--symbology", "code128", "--batch", "-", "--out", out], input: Data(ids.utf8))
        #expect(render.status == 65)
        #expect(
            render.stderrLines.first
                == "gymcard: standard input:5: invalid ID: 'Å' at position 1 cannot be encoded in Code 128; use printable ASCII characters (space to ~); line skipped"
        )
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == ["GYM%2542.png", "GYM%2F42.png", "GYM0042.png"])
        for (name, text) in zip(names, ["GYM%42", "GYM/42", "GYM0042"]) {
            let scan = try await gymcard.run(["scan", "--json", out + "/" + name])
            #expect(try Self.json(scan.stdoutText)["id"] as? String == text)
            #expect(try Self.json(scan.stdoutText)["symbology"] as? String == "code128")
        }
    }

    // MARK: Cards stored before symbologies

    static let schema1 = GymcardProcess.packageRoot.appendingPathComponent("Tests/Fixtures/vault-schema1")
        .path

    @Test(
        "a card stored by gymcard before symbologies (schema 1, plain and encrypted) opens and draws as it did: the same pixels, the SVG byte for byte"
    )
    func schemaOneCards() async throws {
        for (folder, file, extra, id, label) in [
            ("plain", "card.json", [String](), "A905123456B", "Hokie Passport"),
            (
                "encrypted", "card.age", ["--passphrase-file", Self.schema1 + "/passphrase.txt"],
                "C12-345:678/90D", "Night shift"
            ),
        ] {
            let home = try TemporaryDirectory()
            let gymcard = GymcardProcess(home: home.path)
            let directory = home.path + "/data/gymcard"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: "\(Self.schema1)/\(folder)/\(file)", toPath: directory + "/" + file)
            let show = try await gymcard.run(["show", "--png", "-"] + extra)
            #expect(show.status == 0, "\(show.stderr)")
            // The same picture: the PNG's encoding has since changed (1-bit grey at zlib level 9, no palette).
            let before = try Data(contentsOf: URL(fileURLWithPath: "\(Self.schema1)/\(folder)/show.png"))
            #expect(
                try PNGCodec.decodeGray(Array(show.stdout)) == PNGCodec.decodeGray(Array(before)),
                "\(folder): the PNG differs from the one gymcard drew before")
            let card = try Self.json(try await gymcard.run(["card", "--json"] + extra).stdoutText)
            #expect(card["symbology"] as? String == "codabar")
            #expect(card["id"] as? String == id)
            #expect(card["label"] as? String == label)
            if folder == "encrypted" {
                let svg = try await gymcard.run(["show", "--svg", "-", "--text"] + extra)
                let svgBefore = try Data(
                    contentsOf: URL(fileURLWithPath: "\(Self.schema1)/encrypted/show.svg"))
                #expect(svg.stdout == svgBefore)
            }
        }
    }

    // MARK: Photos of cards other tools drew

    /// zint's name for each linear symbology.
    static let zintNames: [(String, String, String)] = [
        ("codabar", "CODABAR", "A905123456B"),
        ("code39", "CODE39", "GYM-0042"),
        ("code93", "CODE93", "Gym0042"),
        ("code128", "CODE128", "GYM0042a7"),
        ("itf", "C25INTER", "00123456"),
        ("ean8", "EANX", "9638507"),
        ("ean13", "EANX", "400638133393"),
        ("upca", "UPCA", "03600029145"),
        ("upce", "UPCE", "0123456"),
    ]

    /// The dark and light runs across a PNG's top row of bars, from the first dark pixel to the last, in
    /// pixels: the module sequence at the image's scale.
    static func barRuns(_ png: [UInt8], row: Int) throws -> [Int] {
        let image = try PNGCodec.decodeGray(png)
        let pixels = (0..<image.width).map { image.pixels[row * image.width + $0] < 128 }
        guard let first = pixels.firstIndex(of: true), let last = pixels.lastIndex(of: true) else {
            return []
        }
        var runs: [Int] = []
        var current = pixels[first]
        var length = 0
        for dark in pixels[first...last] {
            if dark == current {
                length += 1
            } else {
                runs.append(length)
                current = dark
                length = 1
            }
        }
        runs.append(length)
        return runs
    }

    /// Runs as narrow (`false`) and wide (`true`) elements: wide is over 1.5 times the narrowest run.
    static func elements(_ runs: [Int]) -> [Bool] {
        let narrow = runs.min() ?? 0
        return runs.map { 2 * $0 > 3 * narrow }
    }

    @Test(
        "a card zint drew, photographed turned, blurred and as a JPEG, is read by scan --save; show --png draws it back module for module (Codabar element for element)",
        arguments: zintNames)
    func photographedZintCard(symbology: String, zintName: String, data: String) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let zintPNG = home.path + "/zint.png"
        // The card as zint draws it by default (human-readable text under the bars), 2 px per module.
        let extra = symbology == "code39" ? ["--vers=1"] : []  // Code 39 with its mod-43 check character.
        try await ScanFormatTests.tool(
            "zint", ["-b", zintName, "--scale=1", "--quietzones", "--data=" + data, "-o", zintPNG] + extra)
        let card = try PNGCodec.decodeGray(Array(try Data(contentsOf: URL(fileURLWithPath: zintPNG))))
        var generator = CardPhotoGenerator(seed: UInt64(symbology.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        var recipe = try #require(
            CardPhotoGenerator.photographLikeRecipes.first { $0.category == "small-jpeg" })
        recipe.frameWidth = 1024
        recipe.frameHeight = 768
        recipe.rotationDegrees = 4...8
        recipe.narrowBarPixels = 2.2...2.6
        recipe.blurSigma = 0.5...0.8
        recipe.jpegQuality = 50...70
        let photo = home.path + "/photo.jpg"
        try Data(generator.photograph(card, narrowBarPixels: 2, recipe: recipe)).write(
            to: URL(fileURLWithPath: photo))

        let scan = try await gymcard.run([
            "scan", "--save", "--no-passphrase", "--json", "--budget", "30", photo,
        ])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try Self.json(scan.stdoutText)["symbology"] as? String == symbology)
        let shown = try await gymcard.run(["show", "--png", "-", "--scale", "2"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let ours = try Self.barRuns(Array(shown.stdout), row: 0)
        let zintRow = card.height / 4  // Across the bars, above zint's text.
        let theirs = try Self.barRuns(
            Array(try Data(contentsOf: URL(fileURLWithPath: zintPNG))), row: zintRow)
        #expect(!ours.isEmpty)
        if symbology == "codabar" {
            // zint draws Codabar's wide elements 2 modules wide, gymcard 3 (the ratio of the cards it reads):
            // the same narrow and wide elements, each at its own ratio.
            #expect(
                Self.elements(ours) == Self.elements(theirs),
                "codabar: the redrawn elements differ from zint's")
        } else {
            #expect(ours == theirs, "\(symbology): the redrawn modules differ from zint's")
        }
    }
}

@Suite("gymcard show of a Code 128 card at the turnstile", .serialized)
struct SymbologyTurnstileTests {
    @Test(
        "in tmux: a Code 128 card's blocks scan as Code 128, its text under them",
        .enabled(if: TmuxSession.isAvailable))
    func tmuxCode128() async throws {
        let home = try TemporaryDirectory()
        let tmux = TmuxSession()
        defer { tmux.kill() }
        let command =
            "echo ready; "
            + GymcardProcess(home: home.path).shellCommand(
                "show --id GYM0042a7 --symbology code128 --timeout 0")
            + "; echo status=$?"
        try await tmux.start(columns: 120, rows: 40, command: command)
        let capture = try await tmux.waitForCard(caption: "GYM0042a7")
        let drawing = drawingLines(capture.escaped)
        #expect(drawing.count >= 5)
        #expect(capture.text.contains("GYM0042a7"))
        let image = rasterize(drawing)
        let reads = await OffThePool.glance {
            ZBarReader().decode(image).map { "\($0.symbology):\($0.text)" }
        }
        #expect(reads == ["code128:GYM0042a7"])
        try await tmux.tmux(["send-keys", "-t", tmux.name, "x"])
        try await tmux.waitFor("status=0")
    }
}

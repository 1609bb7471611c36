import Codabar
import Foundation
import Imaging
import Symbols
import TestSupport
import Testing

/// What phones, scanners and browsers write, made in the test by the Debian tools that write them from a
/// rendered card in colour (navy bars on cream, so a reader that took one colour channel, or none, fails).
@Suite("gymcard scan, the files phones, scanners and browsers write")
struct ScanFormatTests {
    static let id = "A905123456B"

    /// A colour PNG of the card, written to the directory, and its path.
    static func colourCard(in directory: String) throws -> String {
        let bars = CodabarRaster.image(
            of: try CodabarSymbol(normalizing: id), style: try BarcodeStyle(narrowBarWidth: 4, barHeight: 120)
        )
        // A quiet margin around it, as on a real card.
        let margin = 60
        var card = RGBImage(width: bars.width + 2 * margin, height: bars.height + 2 * margin)
        for y in 0..<card.height {
            for x in 0..<card.width {
                let isDark =
                    (margin..<margin + bars.width).contains(x) && (margin..<margin + bars.height).contains(y)
                    && bars[x - margin, y - margin]
                let colour: [UInt8] = isDark ? [20, 40, 120] : [250, 235, 200]
                card.pixels.replaceSubrange(
                    (y * card.width + x) * 3..<(y * card.width + x + 1) * 3, with: colour)
            }
        }
        let path = directory + "/card.png"
        try Data(try PNGCodec.encode(card)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs a Debian tool; its standard output goes to `output` when given.
    /// Off the concurrency pool: an encoder (heif-enc's AV1, convert) can take seconds, and a pool thread
    /// blocked that long starves the tests' HTTP servers.
    static func tool(_ name: String, _ arguments: [String], output: String? = nil) async throws {
        let run = try await ChildProcess.run("/usr/bin/" + name, arguments)
        if let output { try run.stdout.write(to: URL(fileURLWithPath: output)) }
        #expect(run.status == 0, "\(name) \(arguments.joined(separator: " ")): \(run.stderrText)")
    }

    /// The first half of a file, as a download or a copy cut short leaves it.
    static func cutInHalf(_ path: String, to cut: String) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
    }

    @Test(
        "a scanner's PNM, netpbm's PAM, TIFF and a browser's WebP read; every page of a multi-page TIFF is scanned; cut short, each is one line and 65"
    )
    func scannerAndBrowserFiles() async throws {
        let home = try TemporaryDirectory()
        let directory = home.path
        let png = try Self.colourCard(in: directory)
        try await Self.tool("pngtopnm", [png], output: directory + "/card.ppm")
        try await Self.tool(
            "pamdepth", ["65535", directory + "/card.ppm"], output: directory + "/card16.ppm")
        try await Self.tool("ppmtopgm", [directory + "/card.ppm"], output: directory + "/card.pgm")
        try await Self.tool("pnmtotiff", ["-lzw", directory + "/card.ppm"], output: directory + "/card.tif")
        try await Self.tool(
            "pgmtopbm", ["-threshold", directory + "/card.pgm"], output: directory + "/card.pbm")
        try await Self.tool(
            "pnmtotiff", ["-g4", directory + "/card.pbm"], output: directory + "/card-g4.tif")
        // pnmtotiff writes a palette for so few colours; JPEG-in-TIFF (YCbCr, subsampled) needs true colour.
        try await Self.tool(
            "pnmtotiff", ["-truecolor", "-lzw", directory + "/card.ppm"], output: directory + "/rgb.tif")
        try await Self.tool(
            "tiffcp", ["-c", "jpeg", "-r", "16", directory + "/rgb.tif", directory + "/card-jpeg.tif"])
        // netpbm's PAM: RGB, GRAYSCALE (pamchannel writes PAM), and RGB_ALPHA with a transparent margin.
        try await Self.tool(
            "pamchannel", ["-infile", directory + "/card.ppm", "-tupletype", "RGB", "0", "1", "2"],
            output: directory + "/card.pam")
        try await Self.tool(
            "pamchannel", ["-infile", directory + "/card.pgm", "-tupletype", "GRAYSCALE", "0"],
            output: directory + "/card-grey.pam")
        try await Self.tool(
            "convert", [png, "-transparent", "rgb(250,235,200)", directory + "/transparent.png"])
        try await Self.tool(
            "pngtopam", ["-alphapam", directory + "/transparent.png"], output: directory + "/alpha.pam")
        try await Self.tool("cwebp", ["-quiet", "-q", "80", png, "-o", directory + "/card.webp"])
        try await Self.tool("cwebp", ["-quiet", "-lossless", png, "-o", directory + "/lossless.webp"])
        // A blank first page, then the card: a stack from a document feeder.
        let blank = "P5\n640 480\n255\n".utf8 + [UInt8](repeating: 255, count: 640 * 480)
        try Data(blank).write(to: URL(fileURLWithPath: directory + "/blank.pgm"))
        try await Self.tool("pnmtotiff", [directory + "/blank.pgm"], output: directory + "/blank.tif")
        try await Self.tool(
            "tiffcp", [directory + "/blank.tif", directory + "/card.tif", directory + "/pages.tif"])
        try await Self.tool(
            "tiffcp", [directory + "/blank.tif", directory + "/blank.tif", directory + "/blanks.tif"])
        let files = [
            "card.ppm", "card16.ppm", "card.pgm", "card.pbm", "card.tif", "card-jpeg.tif", "card-g4.tif",
            "card.webp", "lossless.webp", "pages.tif", "card.pam", "card-grey.pam", "alpha.pam",
        ]
        let gymcard = GymcardProcess(home: home.path)
        // No budget: every stage that applies may run, so what reads does not depend on the machine (a
        // photo that reads late costs a debug build tens of seconds: a generous timeout, not a budget).
        let read = try await gymcard.run(["scan"] + files.map { directory + "/" + $0 }, timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderrLines)")
        #expect(read.stdoutText == files.map { "\(directory)/\($0): \(Self.id)\n" }.joined())

        // `scanimage | gymcard scan -`
        let ppm = try Data(contentsOf: URL(fileURLWithPath: directory + "/card.ppm"))
        let piped = try await gymcard.run(["scan", "-"], input: ppm, timeoutSeconds: 600)
        #expect(piped.status == 0, "\(piped.stderrLines)")
        #expect(piped.stdoutText == Self.id + "\n")

        let blanks = try await gymcard.run(["scan", directory + "/blanks.tif"], timeoutSeconds: 600)
        #expect(blanks.status == 1)
        #expect(
            blanks.stderrLines == ["gymcard: \(directory)/blanks.tif: no barcode found on any of its 2 pages"]
        )
        // The pages share the budget fairly, and each gets at least the cascade's first stages: a cover sheet
        // cannot spend it all before the card's page (it did: its first page was scanned until the budget
        // ran out and the card's page was never begun). A budget under a millisecond counts as none, so
        // whatever the machine's speed only the first stages run, and they read a clean upright card.
        let hurried = try await gymcard.run(["scan", "--budget", "0.0001", directory + "/pages.tif"])
        #expect(hurried.status == 0, "\(hurried.stderrLines)")
        #expect(hurried.stdoutText == Self.id + "\n")
        let hurriedBlanks = try await gymcard.run(["scan", "--budget", "0.0001", directory + "/blanks.tif"])
        #expect(hurriedBlanks.status == 1)
        #expect(
            hurriedBlanks.stderrLines == [
                "gymcard: \(directory)/blanks.tif: no barcode found on any of its 2 pages in the time allowed, which ran out before every page was looked at closely (give more with --budget)"
            ])

        // A multi-page TIFF cut short after its first page, where the card page's directory begins (tiffcp
        // writes each page's directory after its rows): the blank page is whole. It was read as a one-page
        // document and called blank (exit 1).
        let pages = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/pages.tif")))
        func uint32(at offset: Int) -> Int {  // tiffcp on x86 writes little-endian ("II")
            (0..<4).reduce(0) { $0 | Int(pages[offset + $1]) << (8 * $1) }
        }
        let firstDirectory = uint32(at: 4)
        let entries = Int(pages[firstDirectory]) | Int(pages[firstDirectory + 1]) << 8
        let secondDirectory = uint32(at: firstDirectory + 2 + 12 * entries)
        #expect(pages.starts(with: Array("II".utf8)) && secondDirectory > firstDirectory)
        try Data(pages.prefix(secondDirectory)).write(
            to: URL(fileURLWithPath: directory + "/cut-end-pages.tif"))
        // Cut 100 bytes shorter: the card page's palette (pnmtotiff writes one for so few colours) lies past
        // the end. libtiff only warns and reads on without it; the page decoded wrong, "no barcode found".
        try Data(pages.dropLast(100)).write(to: URL(fileURLWithPath: directory + "/cut-palette-pages.tif"))
        for (file, format) in [
            ("card.ppm", "PNM"), ("card16.ppm", "PNM"), ("card.tif", "TIFF"), ("card-jpeg.tif", "TIFF"),
            ("pages.tif", "TIFF"), ("end-pages.tif", "TIFF"), ("palette-pages.tif", "TIFF"),
            ("card.webp", "WebP"),
            ("lossless.webp", "WebP"),
            ("card.pam", "PAM"), ("alpha.pam", "PAM"),
        ] {
            if !["end-pages.tif", "palette-pages.tif"].contains(file) {
                try Self.cutInHalf(directory + "/" + file, to: directory + "/cut-" + file)
            }
            let cut = try await gymcard.run(["scan", directory + "/cut-" + file])
            #expect(cut.status == 65, "\(file): \(cut.stderr)")
            #expect(cut.stderrLines.count == 1, "\(file): \(cut.stderr)")
            #expect(
                cut.stderrLines.first?.hasPrefix(
                    "gymcard: \(directory)/cut-\(file): the \(format) data is damaged or cut short (")
                    == true,
                "\(file): \(cut.stderr)")
            #expect(cut.stdout.isEmpty)
        }
    }

    @Test(
        "colour photos as phones save them read: HEIC 4:2:0, 4:4:4, 10-bit and a grid of tiles, AVIF, transparent HEIC and AVIF on white, and a CMYK JPEG"
    )
    func colourPhotos() async throws {
        let home = try TemporaryDirectory()
        let directory = home.path
        let png = try Self.colourCard(in: directory)
        try await Self.tool("pngtopnm", [png], output: directory + "/card.ppm")
        try await Self.tool(
            "pamdepth", ["65535", directory + "/card.ppm"], output: directory + "/card16.ppm")
        try await Self.tool("pnmtopng", [directory + "/card16.ppm"], output: directory + "/card16.png")
        // heif-enc as the issue has it: `heif-enc -q 60 -o card.heic photo.png` (4:2:0, 8 bits).
        try await Self.tool("heif-enc", ["-q", "60", "-o", directory + "/card.heic", png])
        try await Self.tool(
            "heif-enc", ["-q", "60", "-p", "chroma=444", "-o", directory + "/card-444.heic", png])
        try await Self.tool(
            "heif-enc",
            ["-q", "60", "-b", "10", "-o", directory + "/card-10bit.heic", directory + "/card16.png"])
        try await Self.tool("heif-enc", ["-A", "-q", "60", "-o", directory + "/card.avif", png])
        // An AVIF in RGB: the identity matrix, 4:4:4.
        try await Self.tool(
            "heif-enc",
            [
                "-A", "-q", "80", "--matrix_coefficients", "0", "-p", "chroma=444", "-o",
                directory + "/rgb.avif", png,
            ])
        try await Self.tool("convert", [png, "-colorspace", "CMYK", directory + "/card-cmyk.jpg"])
        // The card's background transparent, stored black (as a tester's PNG had it): read as a very dark
        // photo until HEIC and AVIF were put onto white, as PNG and WebP are. RGBA: heif-enc 1.15 aborts on
        // an 8-bit grey PNG with alpha.
        try await Self.tool(
            "convert",
            [
                png, "-transparent", "rgb(250,235,200)", "-background", "black", "-alpha", "background",
                "PNG32:" + directory + "/transparent.png",
            ])
        try await Self.tool(
            "heif-enc", ["-q", "80", "-o", directory + "/alpha.heic", directory + "/transparent.png"])
        try await Self.tool(
            "heif-enc", ["-A", "-q", "80", "-o", directory + "/alpha.avif", directory + "/transparent.png"])
        // A grid of tiles as an iPhone writes its HEIC: the card centred on 1024×768 so that the symbol
        // crosses every tile's edge, cut in 2×2 tiles of 512×384, each encoded alone and joined. The tiles
        // are true-colour PNGs: heif-enc 1.15 scrambled tiles that convert wrote with a palette.
        try await Self.tool(
            "convert",
            [
                png, "-background", "#FAEBC8", "-gravity", "center", "-extent", "1024x768",
                directory + "/page.png",
            ])
        try await Self.tool(
            "convert",
            [directory + "/page.png", "-crop", "512x384", "+repage", "PNG24:" + directory + "/tile-%d.png"])
        let tiles = (0..<4).map { directory + "/tile-\($0).heic" }
        for (index, tile) in tiles.enumerated() {
            try await Self.tool("heif-enc", ["-q", "60", "-o", tile, directory + "/tile-\(index).png"])
        }
        try await HEICGrid.join(
            tiles: tiles, rows: 2, columns: 2, width: 1024, height: 768, into: directory + "/card-grid.heic")
        let files = [
            "card.heic", "card-444.heic", "card-10bit.heic", "card-grid.heic", "card.avif", "rgb.avif",
            "card-cmyk.jpg", "alpha.heic", "alpha.avif",
        ]
        let gymcard = GymcardProcess(home: home.path)
        let read = try await gymcard.run(["scan"] + files.map { directory + "/" + $0 }, timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderrLines)")
        #expect(read.stdoutText == files.map { "\(directory)/\($0): \(Self.id)\n" }.joined())

        // Cut short, as a broken transfer leaves them: one line, 65.
        for (file, format) in [("card.heic", "HEIC"), ("card.avif", "AVIF")] {
            try Self.cutInHalf(directory + "/" + file, to: directory + "/cut-" + file)
            let cut = try await gymcard.run(["scan", directory + "/cut-" + file])
            #expect(cut.status == 65, "\(file): \(cut.stderr)")
            #expect(
                cut.stderrLines.count == 1
                    && cut.stderrLines[0].hasPrefix(
                        "gymcard: \(directory)/cut-\(file): the \(format) data is damaged or cut short ("),
                "\(file): \(cut.stderr)")
            #expect(cut.stdout.isEmpty)
        }
    }

    @Test("a multi-page TIFF whose first page holds another symbology gives the card on a later page")
    func codabarOnALaterPage() async throws {
        let home = try TemporaryDirectory()
        let directory = home.path
        let png = try Self.colourCard(in: directory)
        // A cover sheet with an EAN-13 (a shipping label), as a tester's document had: it gave the EAN.
        try await Self.tool(
            "zint", ["-b", "13", "--scale=3", "-d", "978089529869", "-o", directory + "/ean.png"])
        for page in ["card", "ean"] {
            let picture = page == "card" ? png : directory + "/ean.png"
            try await Self.tool("pngtopnm", [picture], output: directory + "/\(page).ppm")
            try await Self.tool(
                "pnmtotiff", ["-lzw", directory + "/\(page).ppm"], output: directory + "/\(page).tif")
        }
        try await Self.tool(
            "tiffcp", [directory + "/ean.tif", directory + "/card.tif", directory + "/both.tif"])
        let gymcard = GymcardProcess(home: home.path)
        let read = try await gymcard.run(["scan", directory + "/both.tif"], timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderrLines)")
        #expect(read.stdoutText == Self.id + "\n")
        let all = try await gymcard.run(["scan", "--all", directory + "/both.tif"], timeoutSeconds: 600)
        #expect(all.stdoutText == Self.id + "\n" + "9780895298690\n", "\(all.stderrLines)")
        // The EAN page alone still gives the EAN.
        let ean = try await gymcard.run(["scan", directory + "/ean.tif"], timeoutSeconds: 600)
        #expect(ean.stdoutText == "9780895298690\n", "\(ean.stderrLines)")
    }

    @Test("a PAM file whose tuple type is no picture is refused in one line (65), saying which it reads")
    func pamWithoutPicture() async throws {
        let home = try TemporaryDirectory()
        let path = home.path + "/flow.pam"
        // netpbm's PAM holds any array of numbers; this one is 4×2 samples of depth 2 named FLOWFIELD.
        let header = "P7\nWIDTH 4\nHEIGHT 2\nDEPTH 2\nMAXVAL 255\nTUPLTYPE FLOWFIELD\nENDHDR\n"
        try Data(header.utf8 + [UInt8](repeating: 128, count: 16)).write(to: URL(fileURLWithPath: path))
        let result = try await GymcardProcess(home: home.path).run(["scan", path])
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "gymcard: \(path): a PAM file of tuple type FLOWFIELD, which holds no picture gymcard reads; it reads BLACKANDWHITE, GRAYSCALE and RGB, with or without _ALPHA"
            ])
    }

    @Test(
        "a TIFF without libtiff and a WebP without libwebp say which package to install (exit 69); a JPEG beside still reads",
        .enabled(
            if: ScanCommandTests.canHide("libtiff.so.6") && ScanCommandTests.canHide("libwebp.so.7"),
            "mount namespaces (unshare -m), libtiff6 and libwebp7 are needed"),
        arguments: [
            (
                "libtiff.so.6", "card.tif",
                "a TIFF image; reading it needs libtiff, but libtiff.so.6 does not load (libtiff.so.6: file too short) "
                    + "(Debian: apt install libtiff6)"
            ),
            (
                "libwebp.so.7", "card.webp",
                "a WebP image; reading it needs libwebp, but libwebp.so.7 does not load (libwebp.so.7: file too short) "
                    + "(Debian: apt install libwebp7)"
            ),
        ])
    func missingLibrary(library: String, file: String, message: String) async throws {
        let home = try TemporaryDirectory()
        let png = try Self.colourCard(in: home.path)
        try await Self.tool("pngtopnm", [png], output: home.path + "/card.ppm")
        try await Self.tool("pnmtotiff", [home.path + "/card.ppm"], output: home.path + "/card.tif")
        try await Self.tool("cwebp", ["-quiet", png, "-o", home.path + "/card.webp"])
        let photo = home.path + "/" + file
        let jpeg = ScanCommandTests.samples + "/card-webcam.jpg"
        let (status, stderr) = try await ScanCommandTests.scanHiding(library, ["scan", photo, jpeg])
        #expect(status == 69)
        #expect(stderr == "gymcard: \(photo): \(message)\n")
    }

    static let realScan = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/codabar-photos/other-scenes/damaged-sheet-scan.tif").path

    @Test(
        "a real flatbed scan saved as TIFF (../shared/realworld/codabar-photos) reads to the Codabar its manifest names",
        .enabled(
            if: Prerequisite.runs(FileManager.default.fileExists(atPath: realScan)),
            "../shared/realworld/codabar-photos is not beside the package"))
    func realFlatbedTIFF() async throws {
        let home = try TemporaryDirectory()
        // Its manifest says C012345D; it holds eight other symbologies beside, and a pen scribble. Its UPC-A
        // reads in the first stage, its Codabar only in the full-size photo: a plain scan still gives the
        // Codabar (another symbology's read ends the cascade only after its gentle opening stages), and
        // --all lists the Codabar first.
        let plain = try await GymcardProcess(home: home.path).run(
            ["scan", Self.realScan], timeoutSeconds: 600)
        #expect(plain.status == 0 && plain.stdoutText == "C012345D\n", "\(plain.stdoutText) \(plain.stderr)")
        let read = try await GymcardProcess(home: home.path).run(
            ["scan", "--all", Self.realScan], timeoutSeconds: 600)
        #expect(read.status == 0, "\(read.stderrLines)")
        let lines = read.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "C012345D")
        // Its Interleaved 2 of 5 is 00123456. Lines across the scribble once read 00125456, 00123056 and
        // 00123756, and a piece of it 001234: ITF has no check digit, so a rival read refuses them.
        let itf = lines.filter {
            $0.allSatisfy(\.isNumber) && !["012345678905", "123456789012", "01234565"].contains($0)
        }
        #expect(itf == ["00123456"], "\(lines)")
    }
}

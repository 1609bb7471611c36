import Codabar
import Foundation
import Imaging
import Symbols
import TestSupport
import Testing

@Suite("gymcard scan, end to end")
struct ScanCommandTests {
    static let samples = GymcardProcess.packageRoot.appendingPathComponent("samples").path

    @Test(
        "the bundled sample photos read to their IDs",
        arguments: [("card-webcam.jpg", "A905123456B"), ("card-rotated.jpg", "C12-345:678/90D")])
    func samplePhotos(file: String, expected: String) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(["scan", Self.samples + "/" + file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == expected + "\n")
    }

    @Test(
        "huge PNGs inside the limits: a blank 14000×14000 and a noisy 20000×10000 are scanned in bounded memory (peak RSS under 300 MB), and the blank one is called blank"
    )
    func hugePNGs() async throws {
        let home = try TemporaryDirectory()
        // Python writes the files (Tests/Fixtures/large-images/write.py: zlib, row by row) and runs
        // gymcard, then reads the child's peak RSS.
        let script = #"""
            import json, resource, subprocess, sys
            subprocess.run([sys.executable, sys.argv[4], sys.argv[2]], check=True)
            # A fresh, small interpreter runs each scan: a child forked from this one would count this
            # process's memory in its peak.
            measure = (
                "import json, resource, subprocess, sys\n"
                "run = subprocess.run(sys.argv[1:3] + ['--budget', '0.5', sys.argv[3]], capture_output=True,"
                " env=json.loads(sys.argv[4]))\n"
                "print(json.dumps({'status': run.returncode, 'stderr': run.stderr.decode(),"
                " 'peakKB': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))\n")
            results = {}
            for name in ["blank", "noisy"]:
                out = subprocess.run([sys.executable, "-c", measure, sys.argv[1], "scan",
                                      sys.argv[2] + "/" + name + ".png", sys.argv[3]], capture_output=True, check=True)
                results[name] = json.loads(out.stdout)
            print(json.dumps(results))
            """#
        let environment = String(
            decoding: try JSONSerialization.data(withJSONObject: GymcardProcess(home: home.path).environment),
            as: UTF8.self)
        let (status, output, error) = try await Interop.runPython(
            script,
            [
                GymcardProcess.executable.path, home.path, environment,
                GymcardProcess.packageRoot.appendingPathComponent("Tests/Fixtures/large-images/write.py")
                    .path,
            ])
        #expect(status == 0, "\(error)")
        let results = try #require(JSONSerialization.jsonObject(with: output) as? [String: [String: Any]])
        let blank = try #require(results["blank"])
        #expect(blank["status"] as? Int == 1)
        #expect(
            blank["stderr"] as? String
                == "gymcard: \(home.path)/blank.png: no barcode found (the image is blank)\n")
        for (name, result) in results {
            let peak = result["peakKB"] as? Int ?? .max
            #expect(peak < 300 * 1024, "\(name): peak RSS \(peak / 1024) MB")
            #expect(result["status"] as? Int == 1, "\(name): \(result)")
        }
    }

    @Test("- reads the photo from standard input; --json gives the documented fields")
    func stdinAndJSON() async throws {
        let home = try TemporaryDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/card-webcam.jpg"))
        let result = try await GymcardProcess(home: home.path).run(["scan", "--json", "-"], input: bytes)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["id"] as? String == "A905123456B")
        #expect(object["symbology"] as? String == "codabar")
        #expect(object["file"] as? String == "standard input")
        #expect(object["stage"] is String && object["milliseconds"] is Int)
        #expect(object["confirmations"] is Int)
    }

    @Test("--json: a photo that failed is an object with error and status among the reads, in order")
    func jsonFailures() async throws {
        let home = try TemporaryDirectory()
        let broken = home.path + "/broken.jpg"
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: broken))
        let missing = home.path + "/missing.jpg"
        let result = try await GymcardProcess(home: home.path).run([
            "scan", "--json", broken, Self.samples + "/card-webcam.jpg", missing,
        ])
        #expect(result.status == 66, "the worst of 65 and 66")
        let objects = try result.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(objects.count == 3)
        #expect(
            objects.map { $0["file"] as? String } == [broken, Self.samples + "/card-webcam.jpg", missing])
        #expect(objects[0]["status"] as? Int == 65)
        #expect(
            objects[0]["error"] as? String
                == "\(broken): not an image gymcard reads; it reads photos saved as JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM"
        )
        #expect(objects[1]["id"] as? String == "A905123456B" && objects[1]["error"] == nil)
        #expect(objects[2]["status"] as? Int == 66)
        #expect(objects[2]["error"] as? String == "\(missing): no such file")
        // People still read why on standard error.
        #expect(
            result.stderrLines == [
                "gymcard: \(broken): not an image gymcard reads; it reads photos saved as JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM",
                "gymcard: \(missing): no such file",
            ])
    }

    @Test("--all prints every distinct symbol; several photos are prefixed by their names")
    func allAndSeveral() async throws {
        let home = try TemporaryDirectory()
        var image = BitImage(width: 900, height: 400)
        let bars = CodabarRaster.image(
            of: try .init(normalizing: "905123456"), style: try BarcodeStyle(narrowBarWidth: 2))
        let qr = try QRSymbol(encoding: "A111222333B").image(moduleSize: 5)
        for y in 0..<bars.height {
            for x in 0..<bars.width where bars[x, y] { image[20 + x, 150 + y] = true }
        }
        for y in 0..<qr.height { for x in 0..<qr.width where qr[x, y] { image[600 + x, 100 + y] = true } }
        let path = home.path + "/both.png"
        try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: path))
        let gymcard = GymcardProcess(home: home.path)
        let all = try await gymcard.run(["scan", "--all", path])
        #expect(all.status == 0)
        #expect(Set(all.stdoutText.split(separator: "\n")) == ["A905123456B", "A111222333B"])
        let several = try await gymcard.run(["scan", path, Self.samples + "/card-webcam.jpg"])
        #expect(several.stdoutText == "\(path): A905123456B\n\(Self.samples)/card-webcam.jpg: A905123456B\n")
    }

    @Test("a photo without a barcode prints nothing, explains on stderr, and exits 1")
    func noBarcode() async throws {
        let home = try TemporaryDirectory()
        var generator = CardPhotoGenerator(seed: 77)
        let recipe = CardPhotoGenerator.testRecipes.first { $0.category == "no-barcode" }!
        let photo = generator.photo(recipe, name: "empty")
        let path = home.path + "/" + photo.name
        try Data(photo.bytes).write(to: URL(fileURLWithPath: path))
        let result = try await GymcardProcess(home: home.path).run(["scan", "--budget", "0.5", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("gymcard: \(path): "))
    }

    @Test(
        "a --budget out of range, negative included, is one line naming the range (64), not a missing value",
        arguments: ["0", "-1", "-0.5", "61"])
    func budgetOutOfRange(budget: String) async throws {
        let home = try TemporaryDirectory()
        let result = try await GymcardProcess(home: home.path).run(
            ["scan", "--budget", budget, Self.samples + "/card-webcam.jpg"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines.first?.contains("--budget must be more than 0 and at most 60 seconds") == true)
    }

    @Test(
        "with libzbar unloadable (an empty file), scan says so (exit 69) instead of claiming there is no barcode",
        .enabled(
            if: canHide("libzbar.so.0"),
            "mount namespaces (unshare -m) and libzbar0 are needed"))
    func missingLibzbar() async throws {
        let photo = Self.samples + "/card-webcam.jpg"
        let (status, message) = try await Self.scanHiding("libzbar.so.0", ["scan", photo])
        #expect(status == 69)
        #expect(
            message
                == "gymcard: libzbar.so.0 does not load (libzbar.so.0: file too short), so photos cannot be scanned; "
                + "install it (Debian: apt install libzbar0)\n"
        )
    }

    @Test(
        "a HEIC photo without libheif says so (exit 69, the worst); a JPEG beside it still reads",
        .enabled(
            if: canHide("libheif.so.1"),
            "mount namespaces (unshare -m) and libheif1 are needed"))
    func missingLibheif() async throws {
        let home = try TemporaryDirectory()
        let heic = home.path + "/IMG_0001.HEIC"
        try await Self.encodeHEIF(Self.samples + "/card-webcam.jpg", to: heic)
        let jpeg = Self.samples + "/card-webcam.jpg"
        let (status, message) = try await Self.scanHiding("libheif.so.1", ["scan", heic, jpeg])
        #expect(status == 69)
        #expect(
            message
                == "gymcard: \(heic): a HEIC image; reading it needs libheif, but libheif.so.1 does not load "
                + "(libheif.so.1: file too short) (Debian: apt install libheif1)\n"
        )
    }

    /// Whether `library` can be hidden from one gymcard process: mount namespaces are permitted here (a
    /// visible skip where not, CI too), and it is installed (always, under `CI=true`).
    static func canHide(_ library: String) -> Bool {
        Capability.mountNamespaces
            && Prerequisite.runs(FileManager.default.fileExists(atPath: libraryFolder + library))
    }

    static let libraryFolder = "/usr/lib/x86_64-linux-gnu/"

    /// Runs gymcard with a system library made unloadable (a private mount namespace binds an empty file
    /// over it, for this one process: "file too short"); fails the test where that cannot be done.
    static func scanHiding(_ library: String, _ arguments: [String]) async throws -> (Int32, String) {
        let home = try TemporaryDirectory()
        defer { withExtendedLifetime(home) {} }
        _ = FileManager.default.createFile(atPath: home.path + "/empty", contents: Data())
        let script =
            "mount --bind \(home.path)/empty \(libraryFolder + library) && exec \(GymcardProcess.executable.path) "
            + arguments.joined(separator: " ")
        let run = try await ChildProcess.run("/usr/bin/unshare", ["-m", "sh", "-c", script])
        let message = withoutLibraryFolders(run.stderrText)
        try #require(
            !message.contains("Operation not permitted") && !message.contains("mount:"),
            "\(library) could not be hidden in a mount namespace: \(message)")
        return (run.status, message)
    }

    /// A HEIC (or, with `avif`, an AVIF) copy of a photo, made by libheif's own encoder (heif-enc, from
    /// Debian's libheif-examples, which scripts/install-system-packages installs).
    static func encodeHEIF(_ photo: String, to output: String, avif: Bool = false) async throws {
        let run = try await ChildProcess.run(
            "/usr/bin/heif-enc", (avif ? ["-A"] : []) + ["-q", "80", photo, "-o", output])
        #expect(run.status == 0, "heif-enc \(photo): \(run.stderrText)")
    }

    @Test(
        "HEIC and AVIF photos read like the JPEG they were made from; one claiming 80 MP or cut short is one line, 65"
    )
    func heifPhotos() async throws {
        let home = try TemporaryDirectory()
        let jpeg = Self.samples + "/card-webcam.jpg"
        try await Self.encodeHEIF(jpeg, to: home.path + "/card.heic")
        try await Self.encodeHEIF(
            Self.samples + "/card-rotated.jpg", to: home.path + "/rotated.avif", avif: true)
        let whole = try Data(contentsOf: URL(fileURLWithPath: home.path + "/card.heic"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: home.path + "/cut.heic"))
        let gymcard = GymcardProcess(home: home.path)
        let read = try await gymcard.run(["scan", home.path + "/card.heic", home.path + "/rotated.avif"])
        #expect(read.status == 0, "\(read.stderrLines)")
        #expect(
            read.stdoutText
                == "\(home.path)/card.heic: A905123456B\n\(home.path)/rotated.avif: C12-345:678/90D\n")
        // The same file claiming 10000×8000 in its image-size box (ispe: version and flags, width, height):
        // refused before libheif decodes anything, as whole-size decoding would pass the memory bound.
        var claimed = [UInt8](whole)
        let box = try #require(
            (0..<claimed.count - 4).first { Array(claimed[$0..<$0 + 4]) == Array("ispe".utf8) })
        claimed.replaceSubrange(box + 8..<box + 16, with: [0, 0, 0x27, 0x10, 0, 0, 0x1F, 0x40])
        try Data(claimed).write(to: URL(fileURLWithPath: home.path + "/huge.heic"))
        let huge = try await gymcard.run(["scan", home.path + "/huge.heic"])
        #expect(huge.status == 65)
        #expect(
            huge.stderrLines == [
                "gymcard: \(home.path)/huge.heic: the HEIC image is 10000×8000 pixels; gymcard reads HEIC photos of up to 64 megapixels (they are decoded whole); convert it to JPEG"
            ])
        let cut = try await gymcard.run(["scan", home.path + "/cut.heic"])
        #expect(cut.status == 65)
        #expect(cut.stderrLines.count == 1)
        #expect(
            cut.stderrLines.first?.hasPrefix("gymcard: \(home.path)/cut.heic: the HEIC data is damaged")
                == true)
    }

    @Test("bad input: one line, the documented exit code, no crash")
    func badInput() async throws {
        let home = try TemporaryDirectory()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/card-webcam.jpg"))
        let png = try PNGCodec.encode(
            CodabarRaster.image(of: try .init(normalizing: "905123456"), style: try BarcodeStyle()))
        let files: [(String, Data)] = [
            ("scan.ppm", Data("P6\n10200 13200\n255\n".utf8)),
            ("truncated.jpg", jpeg.prefix(jpeg.count / 2)),
            ("truncated.png", Data(png.prefix(png.count / 2))),
            ("text.jpg", Data("this is not a photo\n".utf8)),
            // An iPhone's photo cut down to its first box (an ISO media file whose major brand is heic), a
            // browser's WebP cut down to its header, and a GIF, which gymcard names and does not read.
            (
                "IMG_0001.HEIC",
                Data([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
            ),
            ("photo.webp", Data(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8))),
            ("animation.gif", Data(Array("GIF89a".utf8) + [1, 0, 1, 0])),
            ("zero.jpg", Data()),
            ("huge.png", Data(forgedPNGHeader(width: 100_000, height: 100_000))),
            ("unreadable.jpg", jpeg),
        ]
        for (name, bytes) in files { try bytes.write(to: URL(fileURLWithPath: home.path + "/" + name)) }
        // An uncompressed 1200 dpi colour scan is 404 MB; a sparse file that size costs no disk.
        let scan = try FileHandle(forWritingTo: URL(fileURLWithPath: home.path + "/scan.ppm"))
        try scan.truncate(atOffset: 404 << 20)
        try scan.close()
        try FileManager.default.createDirectory(
            atPath: home.path + "/folder.jpg", withIntermediateDirectories: false)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0], ofItemAtPath: home.path + "/unreadable.jpg")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.path)
        let cases: [(String, Int32, String)] = [
            ("truncated.jpg", 65, "damaged or cut short"),
            ("truncated.png", 65, "damaged or cut short"),
            (
                "text.jpg", 65,
                "not an image gymcard reads; it reads photos saved as JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM"
            ),
            ("IMG_0001.HEIC", 65, "the HEIC data is damaged or cut short"),
            ("photo.webp", 65, "the WebP data is damaged or cut short"),
            (
                "animation.gif", 65,
                "a GIF image, which gymcard does not read; convert it to PNG or JPEG first (giftopnm from the netpbm package converts it)"
            ),
            ("zero.jpg", 65, "is empty"),
            ("huge.png", 65, "100000×100000"),
            ("scan.ppm", 65, "is larger than 256 MiB, more than any photo or scan of a card needs; save it"),
            ("folder.jpg", 66, "is a directory"),
            ("missing.jpg", 66, "no such file"),
            ("unreadable.jpg", 66, "cannot read it"),
        ]
        // Root reads any file; run as nobody so the unreadable file really is.
        let asUser = getuid() == 0 ? "nobody" : nil
        let gymcard = GymcardProcess(home: home.path)
        for (name, status, message) in cases {
            let result = try await gymcard.run(["scan", home.path + "/" + name], asUser: asUser)
            #expect(result.status == status, "\(name): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let mixed = try await gymcard.run([
            "scan", home.path + "/text.jpg", home.path + "/missing.jpg", Self.samples + "/card-webcam.jpg",
        ])
        #expect(mixed.status == 66)
        #expect(mixed.stdoutText.hasSuffix(": A905123456B\n"))
    }
}

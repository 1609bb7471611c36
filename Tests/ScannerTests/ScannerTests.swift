import Codabar
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

@testable import Scanner

/// A symbol on a white canvas, turned by `degrees`, for the scanner's unit tests.
func photo(of id: String, degrees: Double = 0, canvas: Int = 900) throws -> GrayImage {
    let symbol = try CodabarSymbol(normalizing: id)
    let bars = CodabarRaster.image(of: symbol, style: try BarcodeStyle(narrowBarWidth: 3, barHeight: 30))
        .grayImage
    var image = GrayImage(width: canvas, height: canvas)
    let left = (canvas - bars.width) / 2
    let top = (canvas - bars.height) / 2
    for y in 0..<bars.height { for x in 0..<bars.width { image[left + x, top + y] = bars[x, y] } }
    return degrees == 0
        ? image
        : image.rotated(degrees: degrees).cropped(x: 0, y: 0, width: canvas + 300, height: canvas + 300)
}

@Suite("The barcode locator")
struct BarcodeLocatorTests {
    @Test("finds a symbol at any angle and reports that angle", arguments: [0.0, 17, 37, 90, 128, 200, 311])
    func angle(degrees: Double) async throws {
        let image = try photo(of: "905123456", degrees: degrees)
        let regions = await OffThePool.compute { BarcodeLocator.locate(in: image) }
        let region = try #require(regions.first)
        // Rotating the image counter-clockwise by d turns the gradient direction to -d (y points down).
        let difference = (region.angleDegrees + degrees).truncatingRemainder(dividingBy: 180)
        let folded = min(abs(difference), 180 - abs(difference))
        #expect(folded < 5, "found \(region.angleDegrees)° for a symbol turned \(degrees)°")
        #expect(
            abs(region.centerX - Double(image.width) / 2) < 40
                && abs(region.centerY - Double(image.height) / 2) < 40)
    }

    @Test("a symbol cut by a column of weak blocks (a soft wide space) is found whole, not in pieces")
    func weakColumn() async throws {
        let whole = try photo(of: "905123456")
        var cut = whole
        // One block column, and a pixel either side, flat: no gradient energy inside that block.
        let column = whole.width / 2 / 8 * 8
        for y in 0..<cut.height { for x in column - 1...column + 8 { cut[x, y] = 200 } }
        let weakened = cut
        let (expected, found) = await OffThePool.compute {
            (BarcodeLocator.locate(in: whole).first, BarcodeLocator.locate(in: weakened))
        }
        let reference = try #require(expected)
        let region = try #require(found.first)
        #expect(region.length >= 0.95 * reference.length, "found \(found)")
        #expect(abs(region.centerX - reference.centerX) < 8)
    }

    @Test("two symbols side by side, only their quiet zones between them, stay two regions")
    func sideBySide() async throws {
        // Each raster has its quiet zones (10 narrow bars, 30 px): 60 px of white between the bars.
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let bars = CodabarRaster.image(of: symbol, style: try BarcodeStyle(narrowBarWidth: 3, barHeight: 30))
            .grayImage
        var pair = GrayImage(width: 2 * bars.width + 80, height: 600)
        for y in 0..<bars.height {
            for x in 0..<bars.width {
                pair[40 + x, 300 + y] = bars[x, y]
                pair[40 + bars.width + x, 300 + y] = bars[x, y]
            }
        }
        let image = pair
        let found = await OffThePool.compute { BarcodeLocator.locate(in: image) }
        #expect(found.count == 2, "found \(found)")
        #expect(found.allSatisfy { $0.length < 1.5 * Double(bars.width) }, "found \(found)")
    }

    @Test("finds nothing in a flat or noisy image")
    func nothing() {
        var generator = SeededGenerator(seed: 9)
        let noise = GrayImage(
            width: 400, height: 300,
            pixels: (0..<120_000).map { _ in UInt8.random(in: 120...136, using: &generator) })
        #expect(BarcodeLocator.locate(in: noise).isEmpty)
        #expect(BarcodeLocator.locate(in: GrayImage(width: 400, height: 300)).isEmpty)
    }
}

@Suite("The misread guard")
struct ReadGuardTests {
    func read(
        _ text: String, stage: String, aggressive: Bool = false, quality: Int = 5,
        symbology: Symbology = .codabar, engine: DecodingEngine = .zbar, whole: Bool = true
    )
        -> StageRead
    {
        StageRead(
            stage: stage, isAggressive: aggressive,
            symbol: DecodedSymbol(symbology: symbology, text: text, quality: quality), engine: engine,
            coversWholeSymbol: whole)
    }

    /// A real photo of a UPC-A label (`0 66721 01718 5`) read as the EAN-13 `9009181017785` (its check digit
    /// holds) by "stretch 2x across" and "stretch 3x across": one distortion at two factors, which confirms
    /// nothing (issue 39); nor does another aggressive stage (a damaged copy of a UPC-A photo read wrong by
    /// the cuts of one region, enlarged and cut finer). The photo as it is, or the other engine, does.
    @Test(
        "an EAN read only by aggressive stages is refused; the photo as it is or the other engine confirms it"
    )
    func oneDistortion() {
        let text = "9009181017785"
        #expect(BarcodeContent(read: .ean13, text: text) != nil, "its check digit holds")
        var stretched = ReadGuard()
        #expect(
            stretched.record(read(text, stage: "stretch 2x across", aggressive: true, symbology: .ean13))
                == nil)
        #expect(
            stretched.record(read(text, stage: "stretch 3x across", aggressive: true, symbology: .ean13))
                == nil)
        #expect(
            stretched.record(read(text, stage: "locate 1 fine 2x", aggressive: true, symbology: .ean13))
                == nil)
        #expect(stretched.trustedTexts.isEmpty)
        for other in [
            read(text, stage: "plain", quality: 1, symbology: .ean13),
            read(text, stage: "stretch 2x across", aggressive: true, symbology: .ean13, engine: .zxing),
        ] {
            var confirmed = stretched
            #expect(confirmed.record(other) != nil, "\(other.stage) \(other.engine)")
        }
        // Codabar keeps its own rules (the footprint judges it): two factors of a stretch confirm.
        var codabar = ReadGuard()
        _ = codabar.record(read("A40156B", stage: "stretch 2x across", aggressive: true))
        #expect(codabar.record(read("A40156B", stage: "stretch 3x across", aggressive: true)) != nil)
        #expect(
            read(text, stage: "locate 1 2x", aggressive: true).distortion
                != read(text, stage: "locate 1").distortion)
    }

    /// A webcam photo of a UPC-A card (SymbologyPhotoTests, seed 46): the thresholded copy read two texts
    /// whose check digits hold on 6 and 10 lines, and zxing-cpp read the same two off a blurred copy; the
    /// card's own text was read on 240 lines and more (issue 39).
    @Test("an EAN/UPC or Code 128/93 text with a rival of its symbology read on more lines is refused")
    func strongerRival() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("066721017185", stage: "plain", quality: 240, symbology: .upca)) != nil)
        for (text, quality) in [("066781011185", 10), ("066781017125", 6)] {
            #expect(BarcodeContent(read: .upca, text: text) != nil, "its check digit holds")
            for stage in ["threshold", "threshold rotate 45.0"] {
                _ = readGuard.record(
                    read(text, stage: stage, aggressive: true, quality: quality, symbology: .upca))
            }
            _ = readGuard.record(
                read(text, stage: "zxing blur", quality: 3, symbology: .upca, engine: .zxing))
        }
        #expect(readGuard.trustedTexts == ["066721017185"])
        // The same for the other symbologies with a check character but no footprint.
        for (symbology, card, rival) in [
            (Symbology.code128, "GYM-000417", "GYM-000411"), (.code93, "CARD93-X", "CARD93-Y"),
            (.ean13, "4006381333931", "4006381333948"),
        ] {
            var rivals = ReadGuard()
            _ = rivals.record(read(card, stage: "plain", quality: 40, symbology: symbology))
            _ = rivals.record(read(rival, stage: "plain", quality: 3, symbology: symbology))
            _ = rivals.record(
                read(rival, stage: "zxing plain", quality: 2, symbology: symbology, engine: .zxing))
            #expect(rivals.trustedTexts == [card], "\(symbology.name)")
        }
        // EAN-13, UPC-A, UPC-E and EAN-8 rival one another: a small JPEG of an EAN-13 card read as the
        // UPC-E 01484336 by two aggressive stages.
        var family = ReadGuard()
        _ = family.record(read("4006381333931", stage: "plain", quality: 60, symbology: .ean13))
        for stage in ["locate 1 fine 2x", "stretch 2x across"] {
            _ = family.record(read("01484336", stage: stage, aggressive: true, quality: 8, symbology: .upce))
        }
        #expect(family.trustedTexts == ["4006381333931"])
    }

    /// A 320 px copy of a webcam photo of a PDF417 card read as another text, its error correction
    /// satisfied, by that stage alone; every other stage read the card (issue 39).
    @Test("a 2D text one stage alone read is refused beside another text of its symbology that more read")
    func outnumbered2D() {
        var readGuard = ReadGuard()
        for stage in ["zxing plain", "zxing blur"] {
            _ = readGuard.record(
                read("PDF-905123456", stage: stage, quality: 0, symbology: .pdf417, engine: .zxing))
        }
        _ = readGuard.record(
            read(
                "PDAAAAF BCDEFGNTTkeQdcuh", stage: "zxing half", quality: 0, symbology: .pdf417,
                engine: .zxing))
        #expect(readGuard.trustedTexts == ["PDF-905123456"])
        // Two codes each read once (two cards in one photo) both stand.
        var two = ReadGuard()
        _ = two.record(read("GYM-1", stage: "zxing plain", quality: 0, symbology: .qr, engine: .zxing))
        _ = two.record(read("GYM-2", stage: "zxing blur", quality: 0, symbology: .qr, engine: .zxing))
        #expect(two.trustedTexts == ["GYM-1", "GYM-2"])
    }

    @Test("a read that does not account for the whole symbol is never trusted, however many stages agree")
    func partial() throws {
        var readGuard = ReadGuard()
        let checked = try CodabarSymbol(normalizing: "A37859B").addingCheckCharacter().text
        for stage in ["plain", "blur", "locate 1", "locate 1 2x"] {
            #expect(readGuard.record(read("C12-5:678/90D", stage: stage, quality: 9, whole: false)) == nil)
            #expect(readGuard.record(read(checked, stage: stage, quality: 9, whole: false)) == nil)
        }
        #expect(readGuard.trustedTexts.isEmpty)
        #expect(readGuard.untrustedCount == 2)
    }

    @Test("both engines reading the same text confirm it when one read accounts for the whole symbol")
    func engines() {
        var readGuard = ReadGuard()
        // Both engines can read the same torn lines: agreement alone is no proof.
        #expect(readGuard.record(read("C12-345678/90D", stage: "locate 1", quality: 1, whole: false)) == nil)
        #expect(
            readGuard.record(
                read("C12-345678/90D", stage: "locate 1", quality: 2, engine: .zxing, whole: false)) == nil)
        #expect(
            readGuard.record(read("A31117013206375A", stage: "stretch 2x", quality: 1, whole: false)) == nil)
        #expect(
            readGuard.record(read("A31117013206375A", stage: "stretch 2x", quality: 2, engine: .zxing)) != nil
        )
        #expect(readGuard.trustedTexts == ["A31117013206375A"])
    }

    @Test(
        "an ITF or Code 39 read with a stronger rival (same length, or holding it) is refused; rivals as strong are both"
    )
    func rivals() {
        var readGuard = ReadGuard()
        for stage in ["plain", "sharpen", "full-size"] {
            _ = readGuard.record(read("00123456", stage: stage, quality: 40, symbology: .itf))
            _ = readGuard.record(read("00125456", stage: stage, quality: 3, symbology: .itf))
            _ = readGuard.record(read("001234", stage: stage, quality: 8, symbology: .itf))
            _ = readGuard.record(read("CODE39", stage: stage, quality: 14, symbology: .code39))
            // Another symbology's text of the same length is no rival.
            _ = readGuard.record(read("01234565", stage: stage, quality: 60, symbology: .ean8))
        }
        #expect(readGuard.trustedTexts == ["00123456", "CODE39", "01234565"])
        var even = ReadGuard()
        for stage in ["plain", "sharpen"] {
            _ = even.record(read("CODE39", stage: stage, quality: 5, symbology: .code39))
            _ = even.record(read("CODF39", stage: stage, quality: 5, symbology: .code39))
        }
        #expect(even.trustedTexts.isEmpty)
    }

    @Test("a gentle stage read on several scan lines is trusted at once")
    func gentle() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("A905123456B", stage: "plain")) != nil)
    }

    @Test("an aggressive stage alone is not trusted; a second stage agreeing makes it so")
    func aggressive() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("C12-3+5-/78D", stage: "threshold", aggressive: true)) == nil)
        #expect(readGuard.trustedTexts.isEmpty)
        #expect(readGuard.untrustedCount == 1)
        #expect(readGuard.record(read("C12-3+5-/78D", stage: "upscale 2x", aggressive: true)) != nil)
    }

    @Test("a text only aggressive stages read gives way to a gentle read of the symbol a character apart")
    func gentleRival() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("A740158121B", stage: "plain")) != nil)
        _ = readGuard.record(read("A7401:8121B", stage: "locate 1 fine 2x", aggressive: true))
        #expect(readGuard.record(read("A7401:8121B", stage: "locate 1 fine 3x", aggressive: true)) == nil)
        // Another card's ID, not a character or two apart, stands on two aggressive stages.
        _ = readGuard.record(read("A123456789B", stage: "locate 2 2x", aggressive: true))
        #expect(readGuard.record(read("A123456789B", stage: "locate 2 3x", aggressive: true)) != nil)
        #expect(readGuard.trustedTexts == ["A740158121B", "A123456789B"])
    }

    @Test("a single-line gentle read needs confirmation too")
    func lowQuality() {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read("A905123456B", stage: "rotate 45", quality: 1)) == nil)
        #expect(readGuard.record(read("A905123456B", stage: "rotate -45", quality: 1)) != nil)
    }

    @Test("a valid check character vouches for an aggressive read")
    func checkCharacter() throws {
        let checked = try CodabarSymbol(normalizing: "A37859B").addingCheckCharacter().text
        var readGuard = ReadGuard()
        #expect(readGuard.record(read(checked, stage: "threshold", aggressive: true, quality: 1)) != nil)
    }

    @Test("malformed Codabar text is never recorded", arguments: ["123", "A12A3B", "a123b", "A1x3B"])
    func malformed(text: String) {
        var readGuard = ReadGuard()
        #expect(readGuard.record(read(text, stage: "plain")) == nil)
        #expect(readGuard.untrustedCount == 0)
    }

    @Test("a QR code that is not an ID is remembered for the diagnosis")
    func foreignQR() {
        var readGuard = ReadGuard()
        _ = readGuard.record(read("https://recsports.vt.edu", stage: "plain", symbology: .qr))
        #expect(readGuard.foreignSymbol?.text == "https://recsports.vt.edu")
    }
}

@Suite("The scanning cascade")
struct BarcodeScannerTests {
    @Test("reads a symbol at any angle, upside down included", arguments: [0.0, 40, 90, 135, 180, 250, 333])
    func anyAngle(degrees: Double) async throws {
        let image = try photo(of: "C12-345:678D", degrees: degrees)
        let report = await OffThePool.compute { BarcodeScanner().scan(image) }
        #expect(report.findings.map(\.text) == ["C12-345:678D"])
    }

    @Test(
        "the whole image turned by the located angle puts the bars upright for every scan line",
        arguments: [56.0, -34, 123, 200])
    func turned(degrees: Double) async throws {
        let image = try photo(of: "905123456", degrees: degrees)
        let texts = await OffThePool.compute { () -> [String] in
            let working = image.downscaled(toMaximumSide: BarcodeScanner().workingSide)
            let stage = BarcodeScanner().stages(photo: image, working: working).first {
                $0.name == "locate 1 turned"
            }
            return stage?.image().map { ZBarReader().decode($0).map(\.text) } ?? []
        }
        #expect(texts == ["A905123456B"])
    }

    @Test("stops at the first trustworthy read, and --all style scanning finds both symbols")
    func stopsEarlyAndFindsAll() async throws {
        var image = try photo(of: "905123456")
        let qr = try QRSymbol(encoding: "A111222333B").image(moduleSize: 4).grayImage
        for y in 0..<qr.height { for x in 0..<qr.width { image[20 + x, 20 + y] = qr[x, y] } }
        let photo = image
        let (first, all) = await OffThePool.compute {
            (
                BarcodeScanner().scan(photo),
                BarcodeScanner().scan(photo, findAll: true)
            )
        }
        #expect(first.stagesRun == ["plain"])
        #expect(Set(all.findings.map(\.text)) == ["A905123456B", "A111222333B"])
        #expect(all.findings.first?.symbology == .codabar)
    }

    @Test(
        "a QR code with a web address neither ends the scan nor counts as the ID: the Codabar at 40° is read, and alone the QR code is named"
    )
    func webAddressQR() async throws {
        let qr = try QRSymbol(encoding: "https://recsports.example.edu").image(moduleSize: 4).grayImage
        // At 40° the Codabar needs a later stage than "plain", which reads the upright QR code.
        var image = try photo(of: "905123456", degrees: 40)
        for y in 0..<qr.height { for x in 0..<qr.width { image[20 + x, 20 + y] = qr[x, y] } }
        var alone = GrayImage(width: 600, height: 600, filledWith: 255)
        for y in 0..<qr.height { for x in 0..<qr.width { alone[150 + x, 150 + y] = qr[x, y] } }
        let (both, qrOnly) = await OffThePool.compute { [image, alone] in
            (
                BarcodeScanner().scan(image),
                BarcodeScanner().scan(alone)
            )
        }
        #expect(both.findings.first?.text == "A905123456B")
        #expect(both.diagnosis == nil)
        #expect(qrOnly.findings.map(\.text) == ["https://recsports.example.edu"])
        #expect(qrOnly.findings.first?.isMemberID == false)
        #expect(qrOnly.diagnosis == .notAMemberID(.qr, .webAddress))
        #expect(
            qrOnly.diagnosis?.description
                == "found a QR code with a web address, not a member ID, and no other barcode; photograph the side with the card's barcode"
        )
    }

    @Test("a QR code that only zxing-cpp read is named the same way, web address or not")
    func foreignQRFromTheSecondEngine() {
        let blank = GrayImage(width: 200, height: 200, filledWith: 255)
        for (text, webAddress) in [("https://gym.example.edu/app", true), ("WIFI:S:gym;T:WPA;P:x;;", false)] {
            var readGuard = ReadGuard()
            let read = StageRead(
                stage: "zxing plain", isAggressive: false,
                symbol: DecodedSymbol(symbology: .qr, text: text, quality: 0), engine: .zxing)
            _ = readGuard.record(read)
            #expect(
                ScanDiagnosis.diagnose(original: blank, working: blank, guard: readGuard)
                    == .notAMemberID(.qr, webAddress ? .webAddress : .uri))
        }
    }

    @Test("an empty photo reads nothing and says why")
    func nothing() async {
        let pattern = pattern8(width: 200, height: 150)
        let (report, small) = await OffThePool.compute {
            (
                BarcodeScanner().scan(
                    GrayImage(width: 300, height: 200, filledWith: 20)),
                BarcodeScanner().scan(pattern)
            )
        }
        #expect(report.findings.isEmpty)
        #expect(report.diagnosis == .tooDark)
        // A small image with detail but no barcode gets no size hint: its size is not the problem.
        if case .tooSmall = small.diagnosis {
            Issue.record("a size hint for \(String(describing: small.diagnosis))")
        }
    }

    @Test("cut off is said only when the symbol's own bars reach the border, not when printed text does")
    func cutOff() throws {
        // What gymcard says of a photo that nothing read.
        func said(_ image: GrayImage) -> ScanDiagnosis {
            ScanDiagnosis.diagnose(
                original: image, working: image.downscaled(toMaximumSide: BarcodeScanner().workingSide),
                guard: ReadGuard())
        }
        let whole = try photo(of: "905123456")
        let region = try #require(BarcodeLocator.locate(in: whole).first)
        // Half the symbol outside the photo.
        let cut = whole.cropped(x: 0, y: 0, width: Int(region.centerX), height: whole.height)
        #expect(said(cut) == .cutOff)
        // The whole symbol on a page of text lines (rows of dashes) that run into every border.
        var page = whole
        for y in stride(from: 0, to: page.height, by: 14) {
            for x in 0..<page.width where (x / 37) % 3 != 2 {
                let insideSymbol =
                    abs(Double(x) - region.centerX) < region.length / 2
                    && abs(Double(y) - region.centerY) < region.height / 2
                if !insideSymbol { for dy in 0..<4 where y + dy < page.height { page[x, y + dy] = 40 } }
            }
        }
        #expect(said(page) != .cutOff, "said \(said(page))")
        #expect(said(whole) != .cutOff)
    }

    @Test(
        "blank images are called blank, whatever their size (not blurred, not too small)",
        arguments: [240, 1200])
    func blank(side: Int) async {
        var generator = SeededGenerator(seed: 4)
        var image = GrayImage(width: side, height: side, filledWith: 235)
        // A little sensor noise, as a photo of a blank page has.
        for index in image.pixels.indices { image.pixels[index] = UInt8(230 + Int(generator.next() % 11)) }
        let noisy = image
        let report = await OffThePool.compute { BarcodeScanner().scan(noisy) }
        #expect(report.diagnosis == .blank)
        #expect(report.diagnosis?.description == "no barcode found (the image is blank)")
    }

    @Test("the narrow bar width is measured from the located symbol's own bars", arguments: [1, 2, 3])
    func narrowBars(module: Int) throws {
        let symbol = try CodabarSymbol(normalizing: "905123456")
        let bars = CodabarRaster.image(
            of: symbol, style: try BarcodeStyle(narrowBarWidth: module, barHeight: 40)
        ).grayImage
        var frame = GrayImage(width: bars.width + 200, height: bars.height + 200)
        for y in 0..<bars.height { for x in 0..<bars.width { frame[100 + x, 100 + y] = bars[x, y] } }
        #expect(ScanDiagnosis.narrowBarWidth(in: frame) == Double(module))
        #expect(ScanDiagnosis.narrowBarWidth(in: GrayImage(width: 300, height: 300)) == nil)
    }

    @Test("the size hint names the bars, not the image")
    func sizeHintWording() {
        #expect(
            ScanDiagnosis.tooSmall(barWidth: 0.8).description
                == "the barcode's narrowest bars are less than 1 pixel wide; hold the card closer or use a larger photo"
        )
        #expect(
            ScanDiagnosis.tooSmall(barWidth: 1.2).description.hasPrefix(
                "the barcode's narrowest bars are about 1 pixel wide"))
    }

    @Test(
        "a large photo with nothing bar-like in it skips the full-size rotations; one with a located region that does not read runs them"
    )
    func fullSizeRotationsNeedARegion() async throws {
        // Larger than the working side (300 px here, to keep a debug build quick), so the full-size stages
        // exist. A smooth gradient has no bar-like block; random stripes are located but are no Codabar
        // symbol. The budget is never reached: every stage that applies runs.
        var plain = GrayImage(width: 640, height: 480)
        var stripes = plain
        var generator = SeededGenerator(seed: 14)
        var stripeDark = false
        var nextEdge = 200
        for x in 0..<640 {
            if x == nextEdge, x < 440 {
                stripeDark.toggle()
                nextEdge += Int.random(in: 3...9, using: &generator)
            }
            for y in 0..<480 {
                plain[x, y] = UInt8(60 + x * 120 / 640 + y * 40 / 480)
                stripes[x, y] = (200..<440).contains(x) && (200..<280).contains(y) && stripeDark ? 30 : 235
            }
        }
        let (smooth, striped) = (plain, stripes)
        let scanner = BarcodeScanner(workingSide: 300)
        let (nothing, unreadable) = await OffThePool.compute { (scanner.scan(smooth), scanner.scan(striped)) }
        #expect(nothing.findings.isEmpty && unreadable.findings.isEmpty)
        #expect(!nothing.stagesRun.contains { $0.hasPrefix("full-size rotate") })
        #expect(!nothing.stagesRun.contains { $0.hasPrefix("locate") })
        #expect(nothing.stagesRun.contains("threshold"))
        #expect(unreadable.stagesRun.filter { $0.hasPrefix("full-size rotate") }.count == 6)
    }

    @Test("a spent time budget leaves only the first stage and zxing-cpp's and libdmtx's")
    func budget() {
        let report = BarcodeScanner(timeBudget: .zero).scan(GrayImage(width: 1200, height: 900))
        #expect(report.stagesRun.filter { !$0.hasPrefix("zxing") && !$0.hasPrefix("dmtx") } == ["plain"])
    }

    func pattern8(width: Int, height: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = UInt8((x / 8 + y / 8) % 2 == 0 ? 60 : 200) }
        }
        return image
    }
}

@Suite("The symbol footprint")
struct SymbolFootprintTests {
    /// A clean upright symbol and zbar's read of it.
    func cleanRead(_ id: String) throws -> (GrayImage, DecodedSymbol) {
        let image = try photo(of: id, canvas: 700)
        let symbol = try #require(ZBarReader().decode(image).first)
        return (image, symbol)
    }

    @Test("a read of the whole symbol stands")
    func whole() throws {
        let (image, symbol) = try cleanRead("C12-345:678/90D")
        #expect(symbol.text == "C12-345:678/90D")
        #expect(
            SymbolFootprint.accountsForWholeSymbol(
                .codabar, text: symbol.text, lineEnds: symbol.lineEnds, in: image))
    }

    @Test(
        "a text whose bars and spaces differ from the symbol's, along the same lines, does not",
        arguments: ["C12-345:67890D", "C12-5:678/90D", "C12-345:678/09D"])
    func otherText(text: String) throws {
        let (image, symbol) = try cleanRead("C12-345:678/90D")
        #expect(
            !SymbolFootprint.accountsForWholeSymbol(
                .codabar, text: text, lineEnds: symbol.lineEnds, in: image))
    }

    @Test(
        "below a tear the whole symbol, shifted sideways, still counts for the read; a torn read does not stand"
    )
    func torn() throws {
        let (image, symbol) = try cleanRead("C12-345:678/90D")
        // The lower half of the bars shifted right by an eighth of the symbol's length, as a torn photo:
        // rows in the lower half carry the whole symbol, further along.
        var torn = image
        let ends = try #require(SymbolFootprint.symbolEnds(symbol.lineEnds))
        let (left, right) = (Int(min(ends.first.x, ends.last.x)), Int(max(ends.first.x, ends.last.x)))
        let shift = (right - left) / 8
        for y in Int(ends.first.y)..<image.height {
            for x in stride(from: image.width - 1, through: shift, by: -1) {
                torn[x, y] = image[x - shift, y]
            }
            for x in 0..<shift { torn[x, y] = 255 }
        }
        #expect(
            SymbolFootprint.accountsForWholeSymbol(
                .codabar, text: symbol.text, lineEnds: symbol.lineEnds, in: torn))
        #expect(
            !SymbolFootprint.accountsForWholeSymbol(
                .codabar, text: "C12-345:67890D", lineEnds: symbol.lineEnds, in: torn))
    }
}

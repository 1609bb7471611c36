import Imaging

/// The preprocessing cascade in front of libzbar: cheap stages first, aggressive ones later, stopping at
/// the first trustworthy read (ARCHITECTURE §5).
///
/// zbar alone fails on sensor noise and past about 25° of rotation, because it only scans rows and
/// columns. The stages cure those: an area downscale and a light blur for noise, a rotation sweep for the
/// angle (zbar's row and column scans each cover about ±25°, so turning by 22.5° steps covers every
/// angle, upside down included), a threshold for uneven light and a 2× upscale for tiny bars.
///
/// The cascade is bounded by work, not by time: a fixed list of stages, each on an image of bounded size
/// (the working image, crops of at most ``maximumCropLength``, the photo decoded at about ``decodeSide``,
/// the full-resolution copy at most ``fullResolutionSide``). So a photo gives the same result on a loaded
/// machine as on an idle one. A time budget is only for people who want an answer sooner, and a safety
/// limit far above normal times stops a runaway.
public struct BarcodeScanner: Sendable {
    /// When set, no new libzbar stage starts after this long (the first stage always runs): faster, but
    /// what is read then depends on the machine's speed and load. Nil: every stage that applies may run.
    public var timeBudget: Duration?
    /// A wall-clock limit only against a runaway, far above the time the whole cascade takes (about 1.2 s
    /// of CPU on a damaged 1200×900 photo that reads nothing, on the development machine).
    public var safetyLimit: Duration
    /// Longest side of the working image most stages use.
    public var workingSide: Int
    /// When set, at most this many stages run (stages with nothing to look at are not counted): the
    /// cascade's first stages alone, for tests that look at many photos.
    var stageLimit: Int?

    /// The side a photo is decoded at (TurboJPEG scales larger JPEGs down to at least this).
    public static let decodeSide = 1800

    /// The side the "full resolution" copy is decoded at, at least (small symbols are cropped from it): a
    /// 12 MP photo is read whole, a 200 MP one or a 14000-pixel scan at half size or less, so that memory
    /// stays bounded (about 50 MB for the copy).
    public static let fullResolutionSide = 6000

    #if DEBUG
        /// The default ``safetyLimit`` of a debug build, which computes some 15 times slower and runs the
        /// tests on loaded machines: 10 minutes.
        public static let defaultSafetyLimit = Duration.seconds(600)
    #else
        /// The default ``safetyLimit``: 60 s, some 50 times what the whole cascade costs a damaged photo.
        public static let defaultSafetyLimit = Duration.seconds(60)
    #endif

    /// A scanner bounded by work (default), or also by a time budget.
    public init(
        timeBudget: Duration? = nil, safetyLimit: Duration = BarcodeScanner.defaultSafetyLimit,
        workingSide: Int = 1100
    ) {
        self.timeBudget = timeBudget
        self.safetyLimit = safetyLimit
        self.workingSide = workingSide
    }

    /// One stage of the cascade: a name, whether it is aggressive, and the image it hands to zbar (or, at
    /// the end, to zxing-cpp).
    struct Stage {
        var name: String
        var isAggressive: Bool
        /// The engine that reads the image: libzbar, or zxing-cpp for the last few stages.
        var engine: DecodingEngine = .zbar
        /// Cut from the best located region (its crops, stretches, finer cuts and sharpened copies).
        var isBestRegion = false
        /// The image, or nil when the stage has nothing to look at in this photo (no located region, a
        /// crop too long to cut finer): such a stage is skipped, not run.
        var image: () -> GrayImage?
    }

    /// Scans a photo. With `findAll`, keeps going to the end of the cascade (or the time budget) and
    /// reports every trustworthy symbol instead of stopping at the first.
    ///
    /// `fullResolution` gives the photo at full size when `photo` was decoded reduced (a large JPEG); it
    /// is called only if a small symbol has to be cropped from it. `startedAt` is when the work on this
    /// photo began (reading and decoding it count against the budget too); default now.
    public func scan(
        _ photo: GrayImage, fullResolution: (() -> GrayImage?)? = nil, findAll: Bool = false,
        startedAt: ContinuousClock.Instant? = nil
    ) -> ScanReport {
        let clock = ContinuousClock()
        let start = startedAt ?? clock.now
        let working = photo.downscaled(toMaximumSide: workingSide)
        let reader = ZBarReader()
        let secondReader = ZXingReader()
        var readGuard = ReadGuard()
        var stagesRun: [String] = []
        var firstTrusted: StageRead?
        var pending = stages(photo: photo, working: working, fullResolution: fullResolution)[...]
        while let stage = pending.popFirst() {
            if let stageLimit, stagesRun.count >= stageLimit { break }
            if !stagesRun.isEmpty {
                let spent = clock.now - start
                if spent > safetyLimit { break }
                // Past the budget only the second engine's stages still run (see ``secondEngineStages``).
                if let timeBudget, spent > timeBudget, stage.engine == .zbar { continue }
            }
            guard let image = stage.image() else { continue }
            stagesRun.append(stage.name)
            var reads =
                stage.engine == .zbar
                ? reader.decode(image).map { ($0, DecodingEngine.zbar) }
                : secondReader.decode(image).map { ($0.symbol, DecodingEngine.zxing) }
            // A libzbar read that does not account for the whole symbol may be a damaged photo's torn scan
            // lines, or a true read whose scan-line ends the footprint check cannot follow: zxing-cpp reads
            // the same image, and its read, judged from its own corners, may account for the whole symbol.
            var judged: [StageRead] = []
            var askedSecondEngine = false
            while !reads.isEmpty {
                let (symbol, engine) = reads.removeFirst()
                let read = StageRead(
                    stage: stage.name, isAggressive: stage.isAggressive, symbol: symbol, engine: engine,
                    in: image)
                judged.append(read)
                if !read.coversWholeSymbol, engine == .zbar, !askedSecondEngine, ZXingReader.isAvailable {
                    askedSecondEngine = true
                    reads += secondReader.decode(image).map { ($0.symbol, DecodingEngine.zxing) }
                }
            }
            for read in judged {
                // A QR code that is not a member ID (a web address) does not end the cascade: the card's
                // Codabar may still be in the photo.
                if let trusted = readGuard.record(read), firstTrusted == nil, trusted.symbol.isMemberID {
                    firstTrusted = trusted
                }
            }
            if firstTrusted != nil, !findAll { break }
            // A read from the best region that still needs a second stage: the other cuts of that region
            // are the likeliest to confirm it and cost little, so they run next, before the rotations and
            // the full-size passes (far 12 MP cards were confirmed at about 350 ms instead of 520). Moving
            // them to the front again later changes nothing: they are already there.
            if stage.isBestRegion, !judged.isEmpty, firstTrusted == nil {
                pending = pending.filter(\.isBestRegion) + pending.filter { !$0.isBestRegion }
            }
        }
        let texts = readGuard.trustedTexts
        let findings = texts.map { text -> ScanFinding in
            let reads = readGuard.reads(of: text)
            return ScanFinding(
                symbology: reads[0].symbol.symbology, text: text, stage: reads[0].stage,
                confirmations: Set(reads.map(\.stage)).count)
        }
        // The first trusted read is the best: it came from the gentlest stage. Member IDs before anything
        // else a QR code held.
        func rank(_ finding: ScanFinding) -> (Int, Int, Int) {
            (
                finding.text == firstTrusted?.symbol.text ? 0 : 1, finding.isMemberID ? 0 : 1,
                finding.symbology == .codabar ? 0 : 1
            )
        }
        let ordered = findings.sorted { rank($0) < rank($1) }
        let diagnosis =
            ordered.contains(where: \.isMemberID)
            ? nil : ScanDiagnosis.diagnose(original: photo, working: working, guard: readGuard)
        return ScanReport(
            findings: ordered, diagnosis: diagnosis, stagesRun: stagesRun, elapsed: clock.now - start)
    }

    /// The cascade, in order. Images are made lazily, only when a stage runs.
    func stages(photo: GrayImage, working: GrayImage, fullResolution: (() -> GrayImage?)? = nil) -> [Stage] {
        var stages: [Stage] = []
        let isLarger = Swift.max(photo.width, photo.height) > Swift.max(working.width, working.height)
        let isSmall = Swift.max(working.width, working.height) < 800
        let smoothed = Lazy { working.blurred(sigma: 1) }
        stages.append(Stage(name: "plain", isAggressive: false) { working })
        stages.append(Stage(name: "blur", isAggressive: false) { smoothed.value })
        // Crop each likely symbol upright out of the largest image there is. The locator looks at the
        // decoded photo (about 2000 px), where even a far card's bars are still two pixels wide; that
        // photo, blurred once, also serves the full-size stages. A photo no larger than the working image
        // is searched as it is: blurred, bars of about a pixel lost the gradient energy of their narrow
        // runs and were found in pieces (on 1247 photos: 15 more read, 2 fewer, no misread).
        let located = Lazy { isLarger ? photo.blurred(sigma: 1) : working }
        let regions = Lazy { BarcodeLocator.locate(in: located.value, limit: 2) }
        let largest = Lazy { () -> GrayImage in
            if let full = fullResolution?(), full.width > photo.width { return full }
            return photo
        }
        let crops = (0..<2).map { rank in
            Lazy { () -> GrayImage? in
                guard rank < regions.value.count else { return nil }
                return Self.crop(regions.value[rank], foundIn: located.value, from: largest.value)
            }
        }
        for rank in 0..<2 {
            stages.append(
                Stage(name: "locate \(rank + 1)", isAggressive: false, isBestRegion: rank == 0) {
                    crops[rank].value
                })
        }
        // The whole working image turned by the best region's angle: every scan line crosses the whole
        // symbol even when the locator found it in pieces too far apart to join (seen: a card at 56°
        // among printed text, in two pieces 35 px apart, that no crop and no sweep angle read).
        stages.append(
            Stage(name: "locate 1 turned", isAggressive: false) {
                guard let region = regions.value.first, abs(region.angleDegrees) > 5 else { return nil }
                return working.rotated(degrees: region.angleDegrees)
            })
        if isLarger {
            stages.append(Stage(name: "full-size", isAggressive: false) { located.value })
        }
        // Bars of about a pixel, which zbar's edge detector cannot separate: the best region cut upright
        // and stretched across 2, 3 and 4 times (Lanczos). Aggressive, as any upscale is: a read stands
        // only when two agree (or its check character holds). On the seeded corpus this took thin-bars
        // from 0 to 7 of 20 and small-jpeg from 10 to 11, with no misread (Benchmarks/scan.sh).
        let upright = Lazy { () -> GrayImage? in
            guard let region = regions.value.first else { return nil }
            return Self.crop(region, foundIn: located.value, from: largest.value)
        }
        for factor in [2, 3, 4] {
            stages.append(
                Stage(name: "locate 1 \(factor)x", isAggressive: true, isBestRegion: true) {
                    upright.value?.stretchedSharply(by: factor)
                })
        }
        // A card tilted about 45° (clutter around it keeps the locator from it): before the costlier
        // stages below, which are for upright bars.
        stages.append(Stage(name: "rotate 45", isAggressive: false) { working.rotated(degrees: 45) })
        stages.append(Stage(name: "rotate -45", isAggressive: false) { working.rotated(degrees: -45) })
        // Soft bars (defocus, a far card, heavy JPEG): unsharp masking restores their edges. Aggressive, as
        // it can sharpen noise into bars too. The region's sharpened cuts cost a few milliseconds, so they
        // run before the finer cuts and the whole sharpened image, which cost tens.
        let sharpUpright = Lazy {
            upright.value?.sharpened(sigma: Self.sharpenSigma, amount: Self.sharpenAmount)
        }
        stages.append(
            Stage(name: "locate 1 sharp", isAggressive: true, isBestRegion: true) { sharpUpright.value })
        for factor in [2, 3] {
            stages.append(
                Stage(name: "locate 1 sharp \(factor)x", isAggressive: true, isBestRegion: true) {
                    sharpUpright.value?.stretchedSharply(by: factor)
                })
        }
        // Bars of about a pixel, cut out of the photo twice and three times finer than its pixels, sampled
        // with a Lanczos kernel along the located direction (bilinear sampling softens them). Aggressive.
        for factor in [2, 3] {
            stages.append(
                Stage(name: "locate 1 fine \(factor)x", isAggressive: true, isBestRegion: true) {
                    guard let region = regions.value.first else { return nil }
                    return Self.fineCrop(region, foundIn: located.value, from: largest.value, factor: factor)
                })
        }
        stages.append(
            Stage(name: "sharpen", isAggressive: true) {
                working.sharpened(sigma: Self.sharpenSigma, amount: Self.sharpenAmount)
            })
        stages.append(
            Stage(name: "threshold", isAggressive: true) { smoothed.value.thresholded() })
        if isSmall {
            stages.append(Stage(name: "upscale 2x", isAggressive: true) { working.upscaled(by: 2) })
            // A tiny scan: a small, nearly upright symbol whose narrow bars are 1 to 1.4 px, so most of
            // its edges fall inside a pixel and the blurred image the locator looks at splits it in pieces.
            // The whole image stretched across (or down, for a symbol on its side) with a Lanczos kernel,
            // as the region's crops are. Tiny-scan photos (generate-corpus DIR 30 2026 tiny-scan): 5 -> 11 of 30 (zxing-cpp 6,
            // zbarimg 3); no new read or misread elsewhere in the seeded corpora, and no false positive on
            // 180 small photos without a barcode (text, stripes).
            for (factor, across) in [(2, true), (3, true), (2, false), (3, false)] {
                stages.append(
                    Stage(name: "stretch \(factor)x \(across ? "across" : "down")", isAggressive: true) {
                        across
                            ? working.stretchedSharply(by: factor)
                            : working.transposed().stretchedSharply(by: factor)
                    })
            }
        }
        for angle in [22.5, -22.5, 67.5, -67.5] {
            stages.append(
                Stage(name: "rotate \(angle)", isAggressive: false) { working.rotated(degrees: angle) })
        }
        if isLarger {
            // The full-size photo turned: for a small symbol at an angle that the working image is too
            // coarse to show. They look at the very image the locator searched, and the locator's measure
            // (gradient energy and coherence per block) does not depend on the angle: where it found nothing
            // bar-like, a turned copy has nothing bar-like either, and these six stages (half a second on a
            // 12 MP photo) are skipped. On the seeded corpora (seeds 2026, 7, 1 and 3: 900 photos) only the
            // photos without a barcode had no located region.
            for angle in [45.0, -45.0, 22.5, -22.5, 67.5, -67.5] {
                stages.append(
                    Stage(name: "full-size rotate \(angle)", isAggressive: false) {
                        regions.value.isEmpty ? nil : located.value.rotated(degrees: angle)
                    })
            }
        }
        for angle in [0.0, 45.0, -45.0] {
            stages.append(
                Stage(name: "threshold rotate \(angle)", isAggressive: true) {
                    smoothed.value.rotated(degrees: angle).thresholded()
                })
        }
        return stages + Self.secondEngineStages(working: working, regions: regions, crops: crops)
    }
}

extension BarcodeScanner {
    /// Unsharp masking for the sharpen stages: the neighbourhood (pixels) and the strength.
    static let sharpenSigma = 4.0
    static let sharpenAmount = 3.0

    /// Longest crop handed to zbar; a larger region is sampled down to it.
    static let maximumCropLength = 2400.0

    /// The region cut upright out of `source` `factor` times finer than the source's pixels, with a
    /// Lanczos kernel and no blur; nil when that would be longer than ``maximumCropLength``.
    static func fineCrop(
        _ region: BarcodeRegion, foundIn analysed: GrayImage, from source: GrayImage, factor: Int
    )
        -> GrayImage?
    {
        let ratio = Double(source.width) / Double(Swift.max(1, analysed.width))
        let length = region.length * ratio
        // Only a short symbol gains from it; a long one (a 12 MP photo's card) is already finely sampled,
        // and cutting it finer would cost hundreds of milliseconds (seen: 738 ms on a 12 MP photo).
        guard length * Double(factor) <= maximumCropLength else { return nil }
        let scale = 1 / Double(factor)
        return source.extractedSharply(
            centerX: region.centerX * ratio, centerY: region.centerY * ratio,
            angleDegrees: region.angleDegrees,
            width: Int(length / scale), height: Int(region.height * ratio / scale),
            sourcePixelsPerPixel: scale)
    }

    /// The region, found in `analysed`, cut upright out of `source` (the same photo at any size), with
    /// bars vertical and a light blur against the noise of a full-size photo.
    static func crop(_ region: BarcodeRegion, foundIn analysed: GrayImage, from source: GrayImage)
        -> GrayImage
    {
        let factor = Double(source.width) / Double(Swift.max(1, analysed.width))
        let length = region.length * factor
        let scale = Swift.max(1, length / maximumCropLength)
        let crop = source.extracted(
            centerX: region.centerX * factor, centerY: region.centerY * factor,
            angleDegrees: region.angleDegrees,
            width: Int(length / scale), height: Int(region.height * factor / scale),
            sourcePixelsPerPixel: scale)
        return factor > 1.5 ? crop.blurred(sigma: 1) : crop
    }
}

/// A value computed on first use, so stages that never run cost nothing.
final class Lazy<Value>: @unchecked Sendable {
    private let make: () -> Value
    private var stored: Value?

    init(_ make: @escaping () -> Value) { self.make = make }

    var value: Value {
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }
}

/// A trustworthy symbol found in a photo.
public struct ScanFinding: Sendable, Equatable {
    /// Codabar or QR.
    public var symbology: Symbology
    /// The decoded text (start/stop letters included for Codabar).
    public var text: String
    /// The first stage that read it.
    public var stage: String
    /// How many different stages read it.
    public var confirmations: Int

    /// Whether the text is a member ID (see ``DecodedSymbol/isMemberID``).
    public var isMemberID: Bool { DecodedSymbol(symbology: symbology, text: text, quality: 0).isMemberID }
}

/// What scanning one photo found.
public struct ScanReport: Sendable {
    /// Trustworthy symbols, best first.
    public var findings: [ScanFinding]
    /// When no member ID was found: why, for the person.
    public var diagnosis: ScanDiagnosis?
    /// The stages that ran, in order.
    public var stagesRun: [String]
    /// Time spent.
    public var elapsed: Duration
}

import Dispatch
import Glibc
import Imaging
import Symbologies
import Synchronization

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
    /// When set, only the gentle opening stages run (those before the first aggressive one): a later page of
    /// a document whose earlier page gave another symbology's ID looks there for a Codabar, as the same
    /// page would (ARCHITECTURE §5).
    public var openingStagesOnly = false
    /// Whether the work the next stages share is begun on another core while the first stage runs
    /// (``Cascade/warmUp``); off only in tests that compare the two.
    var warmsUp = true

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
        /// A part of the photo cut out around a located region: a linear read must find its quiet zones
        /// inside it (``SymbolFootprint/quietZonesInside(_:lineEnds:corners:in:)``).
        var isCrop = false
        /// What libzbar reads in the image, when it may be made ahead (``Cascade/warmUp``): nil there when
        /// the stage has no image.
        var zbarReads: Lazy<[DecodedSymbol]?>? = nil
        /// The libzbar configuration, when not the scan's own (the short-ITF stage's).
        var reader: ZBarReader? = nil
        /// A zxing-cpp look at the whole image as it is, or at what is drawn on it: for a drawing, it comes
        /// right after libzbar's first look.
        var isDrawingLook: Bool { name == "zxing plain" || name == "zxing drawn" }
        /// The image, or nil when the stage has nothing to look at in this photo (no located region, a
        /// crop too long to cut finer): such a stage is skipped, not run.
        var image: () -> GrayImage?
    }

    /// Whether `zbars` is `extended` as libzbar reads Code 128 with FNC4: every character above 127 with
    /// its high bit dropped, and at least one such character.
    static func dropsFNC4(_ extended: String, as zbars: String) -> Bool {
        let (high, low) = (Array(extended.unicodeScalars), Array(zbars.unicodeScalars))
        guard high.count == low.count, high.contains(where: { $0.value > 127 }) else { return false }
        return zip(high, low).allSatisfy { $0.value <= 255 && $0.value & 0x7F == $1.value }
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
        // A symbol as software drew it (black and white only: a PNG of gymcard's or zint's) is read at its
        // own size, up to four working sides: downscaled, its 1-pixel bars turn grey and vanish (an 85-
        // character Code 39 at 1 px a bar is 1150 px wide). Photos are never bilevel.
        let working =
            photo.isBilevel && Swift.max(photo.width, photo.height) <= 4 * workingSide
            ? photo : photo.downscaled(toMaximumSide: workingSide)
        let reader = ZBarReader()
        let secondReader = ZXingReader()
        var readGuard = ReadGuard()
        // libzbar's Code 128 texts and zxing-cpp's of the same image, where zxing-cpp's holds Latin-1
        // libzbar dropped (FNC4): asked until zxing-cpp reads it, at most three images a text.
        var extendedCode128: [String: String] = [:]
        var code128Asked: [String: Int] = [:]
        var stagesRun: [String] = []
        var firstTrusted: StageRead?
        var codabarTrusted = false
        let cascade = cascade(photo: photo, working: working, fullResolution: fullResolution, reader: reader)
        var stages = cascade.stages
        // A drawing (black and white only) that libzbar does not read as it is holds a Data Matrix, an Aztec
        // or a PDF417 code, or a symbol too fine for it: zxing-cpp's gentle looks come next, not after
        // every libzbar stage meant for photos (a PNG of a Data Matrix card took the whole cascade, about
        // half a second, to reach them). A photo is never black and white.
        if working.isBilevel {
            let early = stages.filter(\.isDrawingLook)
            stages.removeAll(where: \.isDrawingLook)
            let front = stages.prefix { ["plain", "as drawn"].contains($0.name) }.count
            stages.insert(contentsOf: early, at: front)
        }
        var pending = stages[...]
        // The gentle stages before the first aggressive one (the plain image, the located regions, the
        // blurred image, the full-size photo): after a member ID of another symbology, these still look for
        // a Codabar beside it.
        let opening = Set(stages.prefix { !$0.isAggressive }.map(\.name))
        let warmUp = WarmUp(cascade.warmUp, when: warmsUp && stageLimit != 1)
        defer { warmUp.stop() }
        while let stage = pending.popFirst() {
            // Codabar is the card symbology assumed (ARCHITECTURE §5): a sheet of labels whose EAN reads at
            // once and whose Codabar needs the full-size photo (a real flatbed scan) gave the EAN. Another
            // symbology's read ends the cascade only after its gentle opening stages.
            if firstTrusted != nil, !findAll, codabarTrusted || !opening.contains(stage.name) { break }
            if openingStagesOnly, !opening.contains(stage.name) { break }
            if let stageLimit, stagesRun.count >= stageLimit { break }
            if !stagesRun.isEmpty {
                let spent = clock.now - start
                if spent > safetyLimit { break }
                // Past the budget only the second engine's stages still run (see ``secondEngineStages``).
                if let timeBudget, spent > timeBudget, stage.engine == .zbar { continue }
            }
            let stageStart = clock.now
            guard let image = stage.image() else { continue }
            stagesRun.append(stage.name)
            var reads: [(DecodedSymbol, DecodingEngine)] =
                switch stage.engine {
                case .zbar:
                    (stage.zbarReads?.value ?? (stage.reader ?? reader).decode(image)).map { ($0, .zbar) }
                case .zxing: secondReader.decode(image).map { ($0.symbol, .zxing) }
                case .dmtx: DataMatrixReader().decode(image, until: start + safetyLimit).map { ($0, .dmtx) }
                }
            // A libzbar read that does not account for the whole symbol may be a damaged photo's torn scan
            // lines, or a true read whose scan-line ends the footprint check cannot follow: zxing-cpp reads
            // the same image, and its read, judged from its own corners, may account for the whole symbol.
            var judged: [StageRead] = []
            var askedSecondEngine = false
            while !reads.isEmpty {
                var (symbol, engine) = reads.removeFirst()
                // libzbar's binary mode hands back a QR code's bytes raw where it knows no table for their
                // ECI, and a Kanji segment's Shift JIS bytes raw: its text beyond ASCII is zxing-cpp's reading
                // of the same image (SymbolText), or none. Without zxing-cpp it stands as read.
                if engine == .zbar, symbol.symbology == .qr,
                    !symbol.text.unicodeScalars.allSatisfy(\.isASCII),
                    ZXingReader.isAvailable
                {
                    if !askedSecondEngine {
                        askedSecondEngine = true
                        reads += secondReader.decode(image).map { ($0.symbol, DecodingEngine.zxing) }
                    }
                    continue
                }
                // libzbar drops Code 128's FNC4 and the high bit of the characters after it: `óóóó1234`
                // reads as `ssss1234`, a valid text nothing can tell from the right one. zxing-cpp decodes
                // FNC4; its read of the same image stands for libzbar's (ARCHITECTURE §5).
                if engine == .zbar, symbol.symbology == .code128, ZXingReader.isAvailable {
                    if extendedCode128[symbol.text] == nil, code128Asked[symbol.text, default: 0] < 3 {
                        code128Asked[symbol.text, default: 0] += 1
                        let theirs = secondReader.decode(image).map(\.symbol.text)
                        if let extended = theirs.first(where: { Self.dropsFNC4($0, as: symbol.text) }) {
                            extendedCode128[symbol.text] = extended
                        } else if theirs.contains(symbol.text) {
                            extendedCode128[symbol.text] = symbol.text
                        }
                    }
                    symbol.text = extendedCode128[symbol.text] ?? symbol.text
                }
                let read = StageRead(
                    stage: stage.name, isAggressive: stage.isAggressive, symbol: symbol, engine: engine,
                    in: image, crop: stage.isCrop)
                judged.append(read)
                if !read.coversWholeSymbol, engine == .zbar, !askedSecondEngine, ZXingReader.isAvailable {
                    askedSecondEngine = true
                    reads += secondReader.decode(image).map { ($0.symbol, DecodingEngine.zxing) }
                }
            }
            for read in judged {
                // A QR code that is not a member ID (a web address) does not end the cascade: the card's
                // Codabar may still be in the photo.
                let trusted = readGuard.record(read)
                if ScanTrace.isOn { ScanTrace.record(read, in: image, trusted: trusted != nil) }
                if let trusted, trusted.symbol.isMemberID {
                    if firstTrusted == nil { firstTrusted = trusted }
                    if trusted.symbol.symbology == .codabar { codabarTrusted = true }
                }
            }
            if ScanTrace.isOn { ScanTrace.stage(stage.name, took: clock.now - stageStart, since: start) }
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
}

/// A trustworthy symbol found in a photo.
public struct ScanFinding: Sendable, Equatable {
    /// Which of the 13 symbologies it is.
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

/// The cascade's warm-up (``BarcodeScanner/Cascade/warmUp``) running on another thread, when the machine
/// has a second processor to run it on: on one, it would only take time from the stage that is running.
private final class WarmUp: Sendable {
    private let stopped = Atomic<Bool>(false)

    init(_ work: @escaping @Sendable (_ shouldStop: () -> Bool) -> Void, when wanted: Bool) {
        guard wanted, sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 else { return }
        DispatchQueue.global().async { [self] in
            work { self.stopped.load(ordering: .relaxed) }
        }
    }

    /// Asks the warm-up to stop after the step it is in; the scan does not wait for it.
    func stop() { stopped.store(true, ordering: .relaxed) }
}

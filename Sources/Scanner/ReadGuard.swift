import Codabar
import Imaging
import Symbologies

/// One decode by one stage of the cascade.
public struct StageRead: Sendable, Hashable {
    /// The stage that produced it.
    public var stage: String
    /// Whether the stage is gentle (plain, blur, rotation) or aggressive (threshold, upscale), which can
    /// turn noise into plausible bars (ARCHITECTURE §5: `C12-345-678D` once read as `C12-3+5-/78D`).
    public var isAggressive: Bool
    /// What the engine decoded.
    public var symbol: DecodedSymbol
    /// The engine that decoded it.
    public var engine: DecodingEngine
    /// Whether the read accounts for the whole symbol in the image it came from (``SymbolFootprint``);
    /// always true for QR, which carries its own error correction.
    public var coversWholeSymbol: Bool

    /// What the stage did to the photo: its name, and for an aggressive stage its name without the factor
    /// (`stretch 2x across` and `stretch 3x across` are one distortion; `locate 1` and `locate 1 2x` two).
    public var distortion: String {
        guard isAggressive else { return stage }
        let words = stage.split(separator: " ").filter { !($0.hasSuffix("x") && Int($0.dropLast()) != nil) }
        return "aggressive " + words.joined(separator: " ")
    }

    /// A read whose footprint was judged already (or need not be).
    public init(
        stage: String, isAggressive: Bool, symbol: DecodedSymbol, engine: DecodingEngine = .zbar,
        coversWholeSymbol: Bool = true
    ) {
        self.stage = stage
        self.isAggressive = isAggressive
        self.symbol = symbol
        self.engine = engine
        self.coversWholeSymbol = coversWholeSymbol
    }

    /// A read by either engine from `image` (the very image it decoded, a `crop` of the photo or not), its
    /// footprint judged there.
    public init(
        stage: String, isAggressive: Bool, symbol: DecodedSymbol, engine: DecodingEngine, in image: GrayImage,
        crop: Bool = false
    ) {
        // The footprint is measured for Codabar and Interleaved 2 of 5, symbologies without a mandatory check
        // that a tear can shorten into another valid ID (``FootprintPattern``); the others carry their own
        // error correction or check character, or (Code 39) start and stop characters as long as any other.
        let whole = SymbolFootprint.accountsForWholeSymbol(
            symbol.symbology, text: symbol.text, lineEnds: symbol.lineEnds, corners: engine == .zxing,
            in: image, crop: crop)
        self.init(
            stage: stage, isAggressive: isAggressive, symbol: symbol, engine: engine, coversWholeSymbol: whole
        )
    }
}

/// Decides which decodes are trustworthy enough to report: gymcard must never print a wrong ID.
///
/// A read is accepted when it is a QR code, or a valid Codabar symbol (start and stop letters, nothing
/// outside the alphabet) that accounts for the whole symbol it was read from (``SymbolFootprint``; so must
/// an Interleaved 2 of 5 read), and
/// one of these holds:
/// - a gentle libzbar stage read it on at least `minimumQuality` scan lines (zbar's quality counts the
///   lines that agreed), or
/// - a second, different stage read the same text (for EAN, UPC and Code 128, 39 and 93, which no
///   footprint judges: one of the two stages gentle), or
/// - the other engine read the same text (libzbar and zxing-cpp share no code), or
/// - its mod-16 check character holds.
///
/// A text that only aggressive stages read is refused when a gentle stage read whole a text as long, a
/// character or two apart: the finer cuts of a soft symbol can agree on a character they both invent.
///
/// The footprint comes first because agreement is no proof on its own: a damaged JPEG (a few bytes changed
/// shift the lower part of the picture sideways, like a torn card) gives scan lines that cross the tear and
/// read a valid symbol with characters dropped, and neighbouring lines, a second stage looking at the same
/// tear, and even zxing-cpp reading the same image agree with them (seen: both engines read
/// `C12-345678/90D` off one torn crop of `C12-345:678/90D`). One whole read is enough for the others to
/// confirm it: zxing-cpp's read is judged from its own corners, so it can stand for a libzbar read whose
/// scan-line ends the footprint cannot follow.
///
/// A zxing-cpp read never stands alone: zxing-cpp 1.4 reports a linear symbol only when two scan lines
/// agree (its `minLineCount`), so its line count adds nothing, and alone on whole photos it misread one
/// of 340 generated ones (Benchmarks/second-engine.sh). It sees only the photos libzbar could not read.
public struct ReadGuard: Sendable {
    /// zbar scan lines that must agree for a gentle stage's read to stand alone.
    public var minimumQuality: Int

    private(set) var reads: [StageRead] = []
    /// 2D symbols whose bytes were no text in the character set they name: never an ID, but what the
    /// diagnosis says when nothing else was read.
    private(set) var textProblems: [DecodedSymbol] = []

    /// A guard with no reads yet.
    public init(minimumQuality: Int = 2) { self.minimumQuality = minimumQuality }

    /// Symbols that are a part of a message split across several (Structured Append): never an ID, but
    /// what the diagnosis says when nothing else was read.
    private(set) var sequenceParts: [DecodedSymbol] = []

    /// Records a read; returns it when it (or its text, with earlier reads) is now trustworthy.
    public mutating func record(_ read: StageRead) -> StageRead? {
        if read.symbol.textProblem != nil { textProblems.append(read.symbol) }
        // A part of a Structured Append message holds only a part of what was encoded: a card's code is one
        // symbol (zxing-cpp reports parts as they are; libdmtx's reads of one are refused before this).
        if read.symbol.sequencePart != nil {
            sequenceParts.append(read.symbol)
            return nil
        }
        guard Self.isWellFormed(read.symbol) else { return nil }
        reads.append(read)
        return isTrusted(read.symbol.text) ? read : nil
    }

    /// Every distinct text that is trustworthy, in the order first read.
    public var trustedTexts: [String] {
        var seen: Set<String> = []
        return reads.compactMap { read in
            guard !seen.contains(read.symbol.text), isTrusted(read.symbol.text) else { return nil }
            seen.insert(read.symbol.text)
            return read.symbol.text
        }
    }

    /// Texts read but not trusted: what to mention when nothing could be confirmed.
    public var untrustedCount: Int { Set(reads.map(\.symbol.text)).subtracting(trustedTexts).count }

    /// Whether a Codabar was read but not trusted: a card's barcode seen, which says more than a poster's
    /// code beside it.
    var sawUntrustedCodabar: Bool {
        let trusted = Set(trustedTexts)
        return reads.contains { $0.symbol.symbology == .codabar && !trusted.contains($0.symbol.text) }
    }

    /// The first symbol read whole that is not a member ID: a 2D code with a web address or another URI, a
    /// code whose text holds control characters, or a Code 128 with Latin-1 (FNC4).
    public var foreignSymbol: DecodedSymbol? {
        reads.first {
            !$0.symbol.isMemberID
                && ($0.symbol.symbology.isTwoDimensional || $0.symbol.hasControlCharacters
                    || !$0.symbol.text.unicodeScalars.allSatisfy(\.isASCII))
        }?
        .symbol
    }

    /// The reads of a text, in order.
    public func reads(of text: String) -> [StageRead] { reads.filter { $0.symbol.text == text } }

    private func isTrusted(_ text: String) -> Bool {
        let all = reads.filter { $0.symbol.text == text }
        guard let first = all.first else { return false }
        // QR, PDF417, Data Matrix and Aztec carry their own error correction, which can still correct a
        // blurred symbol into another text: one stage's text against another's that more stages read.
        if first.symbol.symbology.isTwoDimensional { return !isOutnumbered(text, all) }
        if hasStrongerRival(text, symbology: first.symbol.symbology) { return false }
        if first.symbol.symbology == .codabar, all.allSatisfy(\.isAggressive), hasGentleRival(text) {
            return false
        }
        let matching = all.filter(\.coversWholeSymbol)
        guard !matching.isEmpty else { return false }
        if Set(all.map(\.engine)).count >= 2 { return true }
        if matching.contains(where: {
            $0.engine == .zbar && !$0.isAggressive && $0.symbol.quality >= minimumQuality
        }) {
            return true
        }
        // Where no footprint judges the read (EAN, UPC, Code 128, 39, 93), aggressive stages do not confirm
        // each other, whatever their distortions: a stretch across at two factors read a real UPC-A label's
        // photo as `9009181017785`, an EAN-13 whose check digit happens to hold, and the cuts of one located
        // region, enlarged and cut finer, read a damaged copy of a UPC-A photo as `066121077185` on 136 scan
        // lines (`066721017185` with two 1s and 7s swapped; ARCHITECTURE §5). Such a read stands when the
        // photo as it is (a gentle stage) or the other engine confirms it.
        let judged = FootprintPattern.judges(first.symbol.symbology)
        if judged, Set(matching.map(\.stage)).count >= 2 { return true }
        if !judged, matching.contains(where: { !$0.isAggressive }), Set(matching.map(\.stage)).count >= 2 {
            return true
        }
        guard first.symbol.symbology == .codabar else { return false }
        let symbol = try? CodabarSymbol(normalizing: text)
        return symbol.map { $0.characters.count >= 5 && $0.hasValidCheckCharacter } ?? false
    }

    /// Whether a linear read other than Codabar's (which the footprint and ``hasGentleRival(_:)`` judge)
    /// has a rival read at least as strong: another text of the same symbology, of the same length or
    /// holding this one, read on as many scan lines or more. A few lines across a blot read a digit wrong,
    /// or a short piece of the symbol (seen on a real flatbed scan, `other-scenes/damaged-sheet-scan.tif`:
    /// `00125456`, `00123056` and `00123756` on 1–4 lines and `001234` beside `00123456` on 33–61); a
    /// check digit is a 1-in-10 filter, so a thresholded webcam photo of a UPC-A card gave `066781011185`
    /// and `066781017125` on 6–10 lines beside `066721017185` on 240 and more, and zxing-cpp read the same
    /// two off a blurred copy (issue 39). Two symbols that rival each other are both refused.
    ///
    /// EAN-13, UPC-A, UPC-E and EAN-8 share their guards and digit patterns, so a few lines across one can
    /// read as another of any length: a small JPEG of an EAN-13 card gave the UPC-E `01484336` on 4–8 lines
    /// of two aggressive stages (issue 39). Among them any text rivals any other.
    private func hasStrongerRival(_ text: String, symbology: Symbology) -> Bool {
        guard !symbology.isTwoDimensional, symbology != .codabar else { return false }
        let strength = { (text: String) in self.reads(of: text).map(\.symbol.quality).max() ?? 0 }
        let own = strength(text)
        let family = Self.eanUPC.contains(symbology) ? Self.eanUPC : [symbology]
        let rivals = reads.filter { family.contains($0.symbol.symbology) && $0.symbol.text != text }
        return rivals.contains { other in
            let sameSymbology = other.symbol.symbology == symbology
            return
                (!sameSymbology || other.symbol.text.count == text.count || other.symbol.text.contains(text))
                && strength(other.symbol.text) >= own
        }
    }

    /// The EAN/UPC family.
    static let eanUPC: Set<Symbology> = [.ean13, .upca, .upce, .ean8]

    /// Whether a 2D text that one stage alone read has a rival of its symbology that two stages or more
    /// read: a 320 px copy of a webcam photo of a PDF417 card read `PDAAAAF BCDEFGNTTkeQdcuh`, its error
    /// correction satisfied, beside `PDF-905123456` from every other stage (issue 39). Two different codes
    /// each read by one stage both stand.
    private func isOutnumbered(_ text: String, _ own: [StageRead]) -> Bool {
        guard Set(own.map(\.stage)).count == 1, let symbology = own.first?.symbol.symbology else {
            return false
        }
        return Set(
            reads.filter { $0.symbol.symbology == symbology && $0.symbol.text != text }.map(\.symbol.text)
        )
        .contains { other in Set(self.reads(of: other).map(\.stage)).count >= 2 }
    }

    /// Whether a Codabar text that only aggressive stages read has a rival that a gentle stage read whole:
    /// a text as long, a character or two apart. A finer cut or a stretch of a soft symbol can show a
    /// character's bars differently in every row, and its cuts at two factors agree on it (seen: a
    /// generated defocus photo, `generate-corpus DIR 1 6 defocus`, read `A740158121B` in the photo as it
    /// is and `A7401:8121B` in its region cut two and three times finer, every row of those cuts agreeing).
    /// Two cards whose IDs are that close, one read only so, lose that one to `scan --all`.
    private func hasGentleRival(_ text: String) -> Bool {
        reads.contains { read in
            guard read.symbol.symbology == .codabar, !read.isAggressive, read.coversWholeSymbol,
                read.symbol.text != text, read.symbol.text.count == text.count
            else { return false }
            return zip(read.symbol.text, text).filter { $0 != $1 }.count <= 2
        }
    }

    /// A Codabar read must already be a complete, valid symbol (zbar reports start and stop), as must any
    /// other linear read (an EAN-13 whose check digit holds); a QR read must be an ID to count as one, but
    /// any QR is remembered for the diagnosis.
    static func isWellFormed(_ symbol: DecodedSymbol) -> Bool {
        switch symbol.symbology {
        case _ where symbol.textProblem != nil: return false
        // Any 2D code's text (its own error correction vouches for it): a web address is said as such.
        case .qr, .pdf417, .datamatrix, .aztec: return !symbol.text.isEmpty
        // A Code 128 or Code 93 with a tab in it is a whole read, though no ID: the diagnosis says why.
        case .code128 where symbol.hasControlCharacters, .code93 where symbol.hasControlCharacters:
            return symbol.text.unicodeScalars.allSatisfy { $0.value < 0x7F }
        // A Code 128 with Latin-1 through FNC4 (zxing-cpp's reading; libzbar's drops it): a whole read,
        // said as what it is.
        case .code128 where !symbol.text.unicodeScalars.allSatisfy(\.isASCII):
            return symbol.text.unicodeScalars.allSatisfy { $0.value <= 0xFF }
        case .codabar:
            guard let parsed = try? CodabarSymbol(normalizing: symbol.text) else { return false }
            return parsed.text == symbol.text
        default: return BarcodeContent(read: symbol.symbology, text: symbol.text) != nil
        }
    }
}

extension DecodedSymbol {
    /// Whether the text is a member ID: a card's text in its symbology (see
    /// ``Symbologies/BarcodeContent/init(read:text:)``). A QR code with a web address is no ID: it never
    /// ends the cascade, and it is reported only as what it is.
    public var isMemberID: Bool { BarcodeContent(read: symbology, text: text) != nil }

    /// Whether the text holds a control character (a tab, a line feed, a group separator), which no member
    /// ID does.
    var hasControlCharacters: Bool { text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }

    /// Whether the text is a web address (`https://…`, `http://…`, or `www.…`).
    var isWebAddress: Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://") || lowered.hasPrefix("www.")
    }
}

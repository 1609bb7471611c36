import FoundationEssentials
import Imaging
import Symbologies

/// Why nothing trustworthy was read, worded to help a person take a better photo.
public enum ScanDiagnosis: Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The photo is very dark.
    case tooDark
    /// A barcode was located, but its narrowest bars are too thin (in pixels) to be resolved.
    case tooSmall(barWidth: Double)
    /// The image is featureless: nothing in it at all.
    case blank
    /// The photo is badly out of focus or shaken.
    case tooBlurred
    /// A barcode was read whole that is no member ID, and no other: a 2D code holding a web address or another
    /// URI, or a code whose text holds control characters.
    case notAMemberID(Symbology, NotAnID)
    /// A 2D symbol was read whose bytes are no text in the character set it names (its ECI): what it
    /// holds cannot be printed as an ID.
    case undecodableText(Symbology, SymbolTextProblem)
    /// Something barcode-like was read, but never confirmed.
    case unconfirmed
    /// A sharp barcode was located, but with fewer bars and spaces than any card's symbol has.
    case tooShort
    /// Bar-like detail runs into the edge of the photo.
    case cutOff
    /// Nothing barcode-like at all.
    case nothingFound

    /// One line for a person: what is wrong with the photo and what to do.
    public var description: String {
        switch self {
        case .tooDark: return "the photo is very dark; take it in better light"
        case .tooSmall(let barWidth):
            let shown = barWidth < 1 ? "less than 1 pixel" : "about \(Int(barWidth.rounded())) pixel"
            return
                "the barcode's narrowest bars are \(shown) wide; hold the card closer or use a larger photo"
        case .blank: return "no barcode found (the image is blank)"
        case .tooBlurred: return "the photo is very blurred; hold the camera steady and let it focus"
        case .notAMemberID(let symbology, let reason):
            let what =
                switch reason {
                case .webAddress: "with a web address, not a member ID,"
                case .uri: "that is not a member ID,"
                case .controlCharacters: "whose text holds control characters, which no member ID has,"
                case .beyondASCII:
                    "holding characters beyond ASCII (through FNC4), which gymcard's Code 128 cards do not hold,"
                case .partOfSequence(let part):
                    "that is part \(part.number) of \(part.count) of a message split across several codes "
                        + "(Structured Append), not a member ID,"
                }
            return
                "found \(Self.article(symbology)) \(symbology == .qr ? "QR code" : symbology.displayName) \(what) and no "
                + "other barcode; photograph the side with the card's barcode"
        case .undecodableText(let symbology, let problem):
            return
                "found \(Self.article(symbology)) \(symbology.displayName) whose \(problem): nothing was printed; the "
                + "code may be damaged, or made by a faulty encoder"
        case .unconfirmed:
            return "a barcode was seen but could not be read reliably; take a sharper, straighter photo"
        case .tooShort:
            return
                "the barcode is too short to read: fewer bars and spaces than any card's symbol has; check the "
                + "card, or photograph the whole barcode"
        case .cutOff: return "the barcode seems cut off at the edge of the photo; include the whole card"
        case .nothingFound:
            return "no barcode found; photograph the whole card, flat and in focus, without glare"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// Why a barcode read whole is no member ID.
    public enum NotAnID: Sendable, Equatable {
        /// A web address (`https://…`, `www.…`).
        case webAddress
        /// Another URI phones act on (`mailto:`, `WIFI:`, a contact card).
        case uri
        /// Control characters in its text (a tab, a line feed, a group separator).
        case controlCharacters
        /// A Code 128 with Latin-1 characters (FNC4): read exactly, but no card gymcard keeps.
        case beyondASCII
        /// One of several symbols that hold one message between them (Structured Append).
        case partOfSequence(SequencePart)
    }

    /// "a" or "an" before a symbology's name as it is said ("an Aztec Code", "an EAN-13", "a UPC-A").
    static func article(_ symbology: Symbology) -> String {
        ["A", "E", "I", "O"].contains(symbology.displayName.prefix(1)) ? "an" : "a"
    }

    /// The most useful explanation for a photo in which nothing was confirmed.
    static func diagnose(original: GrayImage, working: GrayImage, guard readGuard: ReadGuard) -> ScanDiagnosis
    {
        // Called only when no member ID was read. A 2D symbol whose text cannot be decoded is said first:
        // it is a barcode read whole, unlike anything below. A Codabar seen but not confirmed says more than
        // a 2D code that is no member ID; other unconfirmed reads (a PDF417's rows read as a linear code) less.
        if let symbol = readGuard.textProblems.first, let problem = symbol.textProblem {
            return .undecodableText(symbol.symbology, problem)
        }
        if let foreign = readGuard.foreignSymbol,
            readGuard.untrustedCount == 0
                || (foreign.symbology.isTwoDimensional && !readGuard.sawUntrustedCodabar)
        {
            // The three kinds ReadGuard.foreignSymbol finds: control characters, a linear code beyond ASCII
            // (Code 128 through FNC4), a 2D code with an address.
            let reason: NotAnID
            if foreign.hasControlCharacters {
                reason = .controlCharacters
            } else if !foreign.symbology.isTwoDimensional {
                reason = .beyondASCII
            } else {
                reason = foreign.isWebAddress ? .webAddress : .uri
            }
            return .notAMemberID(foreign.symbology, reason)
        }
        if let part = readGuard.sequenceParts.first, let number = part.sequencePart,
            readGuard.untrustedCount == 0
        {
            return .notAMemberID(part.symbology, .partOfSequence(number))
        }
        if readGuard.untrustedCount > 0 { return .unconfirmed }
        if working.meanBrightness < 35 { return .tooDark }
        if isBlank(working) { return .blank }
        if let width = narrowBarWidth(in: original), width < minimumBarWidth {
            return .tooSmall(barWidth: width)
        }
        // A short symbol drawn sharp (a 1-character Codabar ID) has few edges in all: not a blurred photo.
        if let region = BarcodeLocator.locate(in: original, limit: 1).first,
            let elements = elementWidths(of: region, in: original), elements.count < shortestCardElements,
            elements[0] >= 2, Double(elements[elements.count - 1]) <= 4.5 * Double(elements[0])
        {
            // Cut off only when its ends reach the border: bars may run off the top and bottom (gymcard's own
            // PNG has no margin there) and still read.
            let cut = region.barsReachBorder(
                width: original.width, height: original.height, within: Double(BarcodeLocator.blockSize),
                endsOnly: true)
            return cut ? .cutOff : .tooShort
        }
        if working.edgeStrength < 10 { return .tooBlurred }
        if symbolTouchesEdge(working) { return .cutOff }
        return .nothingFound
    }

    /// The bars and spaces of the shortest symbol any reader takes for a card: Codabar with two characters
    /// between its start and stop letters (4 characters of 7 elements, 3 gaps). libzbar reads no
    /// shorter Codabar; zxing-cpp neither.
    static let shortestCardElements = 31

    /// Narrowest bars, in pixels, below which libzbar cannot tell narrow from wide in a real photo.
    static let minimumBarWidth = 1.5

    /// Whether the image is featureless: once sensor noise is smoothed away, its grey levels hardly vary
    /// (a blank page, a lens cap, a white test image).
    static func isBlank(_ image: GrayImage) -> Bool {
        guard image.width >= 8, image.height >= 8 else { return true }
        let smooth = image.blurred(sigma: 2)
        let mean = smooth.meanBrightness
        var squares = 0.0
        for value in smooth.pixels { squares += (Double(value) - mean) * (Double(value) - mean) }
        return (squares / Double(smooth.pixels.count)).squareRoot() < 4
    }

    /// The width of the narrowest bars of the most barcode-like region, in pixels of `image`, when one
    /// is located: the lower quartile of the runs between edges along the middle of the upright crop
    /// (most of a Codabar symbol's elements are narrow ones).
    public static func narrowBarWidth(in image: GrayImage) -> Double? {
        guard let region = BarcodeLocator.locate(in: image, limit: 1).first,
            let elements = elementWidths(of: region, in: image)
        else { return nil }
        return Double(elements[elements.count / 4])
    }

    /// The widths of the bars and spaces across the middle of a located region, in pixels of `image`,
    /// sorted (the margins left out); `nil` when the region has no contrast or fewer than 8 elements.
    static func elementWidths(of region: BarcodeRegion, in image: GrayImage) -> [Int]? {
        // A symbol within a degree of upright (or sideways) is read pixel for pixel: resampling would blur
        // 1-pixel bars together. Others are turned upright first.
        let length = Int(region.length)
        let across = Swift.max(3, Int(region.height / 3))
        let quarterTurns = Int((region.angleDegrees / 90).rounded())
        let crop: GrayImage
        if abs(region.angleDegrees - Double(quarterTurns) * 90) < 1 {
            let sideways = quarterTurns % 2 != 0
            let (alongX, alongY) = (Int(region.centerX) - length / 2, Int(region.centerY) - length / 2)
            let (acrossX, acrossY) = (Int(region.centerX) - across / 2, Int(region.centerY) - across / 2)
            var upright = GrayImage(width: length, height: across)
            for v in 0..<across {
                for u in 0..<length {
                    let (x, y) = sideways ? (acrossX + v, alongY + u) : (alongX + u, acrossY + v)
                    if x >= 0, y >= 0, x < image.width, y < image.height { upright[u, v] = image[x, y] }
                }
            }
            crop = upright
        } else {
            crop = image.extracted(
                centerX: region.centerX, centerY: region.centerY, angleDegrees: region.angleDegrees,
                width: length, height: across, sourcePixelsPerPixel: 1)
        }
        guard crop.width >= 16 else { return nil }
        let profile = (0..<crop.width).map { x in
            (0..<crop.height).reduce(0.0) { $0 + Double(crop[x, $1]) } / Double(crop.height)
        }
        // The symbol's own contrast, from its middle half (the crop's ends are quiet zone and margin).
        let middle = profile[profile.count / 4..<profile.count * 3 / 4]
        guard let low = middle.min(), let high = middle.max(), high - low > 20 else { return nil }
        let threshold = (low + high) / 2
        var runs: [Int] = []
        var run = 1
        for x in 1..<profile.count {
            if (profile[x] < threshold) == (profile[x - 1] < threshold) {
                run += 1
            } else {
                runs.append(run)
                run = 1
            }
        }
        // The first and last runs are the margins, not elements.
        let elements = Array(runs.dropFirst().dropLast().sorted())
        guard elements.count >= 8 else { return nil }
        return elements
    }

    /// Whether a located symbol's bars reach the image's border. A region counts as a symbol when it has
    /// at least 20 bars and spaces across it (the shortest Codabar, `A1B`, has 23; a few stacked lines of
    /// text, which the locator can also find, have fewer). Columns of strong detail at the border were
    /// taken for a cut-off symbol before: printed text around a whole label is such detail, and two
    /// photos on a printed page were told to include the whole card.
    static func symbolTouchesEdge(_ image: GrayImage) -> Bool {
        let smooth = image.blurred(sigma: 1)
        for region in BarcodeLocator.locate(in: smooth, limit: 3) {
            guard let elements = elementWidths(of: region, in: smooth), elements.count >= 20 else { continue }
            return region.barsReachBorder(
                width: image.width, height: image.height, within: Double(BarcodeLocator.blockSize))
        }
        return false
    }
}

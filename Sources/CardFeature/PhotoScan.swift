import GymcardCore
import Imaging
import Scanner
import Symbologies

/// `scan`: the IDs on one photo (every page of a multi-page TIFF, until one reads a Codabar).
public enum PhotoScan {
    /// A photo's reads: each distinct card with the finding that gave it, the best first.
    public struct Reads: Sendable {
        /// The cards (symbology and exact text; see ``Symbologies/BarcodeContent/init(read:text:)``) and
        /// how each was read: Codabar first, the assumed card symbology, then the others as read.
        public var reads: [(finding: ScanFinding, content: BarcodeContent)]
        /// What else a barcode held that is no member ID (a QR code's web address): listed by `--all`,
        /// never taken for the ID.
        public var others: [ScanFinding] = []
        /// How long the last page's scan took.
        public var milliseconds: Int
    }

    /// Scans the photo at `path` (`-` is standard input; `name` is what messages call it). With `all`,
    /// every page and every distinct barcode, else the pages up to the first that reads a Codabar, the best ID.
    public static func scan(_ path: String, name: String, with scanner: BarcodeScanner, all: Bool)
        throws(PhotoScanProblem) -> Reads
    {
        let started = ContinuousClock.now
        let bytes = try readPhoto(path)
        let pageCount = try decoding(name) { () throws(ImagingError) in try ImageFile.pageCount(bytes) }
        var ids: [(ScanFinding, BarcodeContent)] = []
        var others: [ScanFinding] = []
        var firstDiagnosis: ScanDiagnosis?
        var notAnID: ScanDiagnosis?
        var report: ScanReport?
        // Without a budget every page runs every stage that applies, whatever the machine's load; only the
        // safety limit, counted from when the photo was opened, bounds the whole document. With a budget the
        // pages share it fairly: each is begun with its share of what is left (the time the pages before it
        // did not use, divided among it and those after it), so a cover sheet before the card's page, blank
        // or printed, cannot spend the budget before that page is read, and every page gets at least the
        // cascade's first stages. The first page that reads a Codabar ends the scan, unless --all asks for
        // every barcode on every page; after another symbology's ID (a shipping label's EAN on a cover
        // sheet), the later pages' gentle opening stages still look for a Codabar, as on a single page.
        for page in 0..<pageCount where all || !ids.contains(where: { $0.1.symbology == .codabar }) {
            var pageScanner = scanner
            pageScanner.openingStagesOnly = !all && !ids.isEmpty
            if pageCount > 1 {
                let spent = ContinuousClock.now - started
                pageScanner.safetyLimit = Swift.max(.zero, scanner.safetyLimit - spent)
                if let budget = scanner.timeBudget {
                    pageScanner.timeBudget = Swift.max(.zero, (budget - spent) / (pageCount - page))
                }
            }
            let label = pageCount > 1 ? "\(name) (page \(page + 1) of \(pageCount))" : name
            let image = try decoding(label) { () throws(ImagingError) in
                try ImageFile.decodeGray(bytes, page: page, minimumLongSide: BarcodeScanner.decodeSide)
            }
            let pageReport = pageScanner.scan(
                image,
                fullResolution: {
                    try? ImageFile.decodeGray(
                        bytes, page: page, minimumLongSide: BarcodeScanner.fullResolutionSide)
                },
                findAll: all, startedAt: pageCount == 1 ? started : ContinuousClock.now)
            for finding in pageReport.findings {
                guard let content = BarcodeContent(read: finding.symbology, text: finding.text) else {
                    if !others.contains(where: { $0.text == finding.text }) { others.append(finding) }
                    continue
                }
                guard !ids.contains(where: { $0.1 == content }) else { continue }
                ids.append((finding, content))
            }
            if firstDiagnosis == nil { firstDiagnosis = pageReport.diagnosis }
            if case .notAMemberID = pageReport.diagnosis, notAnID == nil {
                notAnID = pageReport.diagnosis
            }
            report = pageReport
        }
        let milliseconds = report.map { Self.milliseconds($0.elapsed) } ?? 0
        guard !ids.isEmpty else {
            let diagnosis = firstDiagnosis ?? .nothingFound
            if case .undecodableText = diagnosis {
                // A barcode read whole whose bytes are no text: bad data, not a photo to take again.
                throw PhotoScanProblem(
                    message: "\(name): \(diagnosis)", kind: .undecodableText, others: others,
                    milliseconds: milliseconds)
            }
            let message: String
            var timeRanOut = false
            if pageCount == 1 {
                message = diagnosis.description
            } else if let notAnID {
                // "No barcode found" would not be true of a document with a web address's QR code.
                message = "no member ID on any of its \(pageCount) pages: \(notAnID.description)"
            } else if let budget = scanner.timeBudget, ContinuousClock.now - started > budget {
                message =
                    "no barcode found on any of its \(pageCount) pages in the time allowed, which ran out "
                    + "before every page was looked at closely"
                timeRanOut = true
            } else {
                message = "no barcode found on any of its \(pageCount) pages"
            }
            throw PhotoScanProblem(
                message: "\(name): \(message)", kind: .nothingFound, others: others,
                milliseconds: milliseconds, timeRanOut: timeRanOut)
        }
        // Codabar is what a member card is assumed to be: on a sheet of several symbologies (a flatbed
        // scan of a card beside other labels) its read comes first, the others after it, in read order. A
        // 2D code holding the same Codabar ID (a card that carries its number both ways) is the same card.
        let codabars = ids.filter { $0.1.symbology == .codabar }
        let cards =
            codabars
            + ids.filter { read in
                read.1.symbology != .codabar
                    && !codabars.contains { $0.1 == read.1.codabarReading }
            }
        return Reads(
            reads: cards.map { (finding: $0.0, content: $0.1) }, others: others, milliseconds: milliseconds)
    }

    private static func milliseconds(_ elapsed: Duration) -> Int {
        Int(elapsed.components.seconds * 1000) + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    /// The photo's bytes; a file that cannot be read is a missing input, an empty or too large one bad data.
    private static func readPhoto(_ path: String) throws(PhotoScanProblem) -> [UInt8] {
        do {
            return try ImageFile.readBytes(path: path)
        } catch {
            switch error {
            case .empty, .tooLarge: throw PhotoScanProblem(message: error.description, kind: .undecodable)
            default: throw PhotoScanProblem(message: error.description, kind: .unreadable)
            }
        }
    }

    /// The body's result, or its decoding error as the line said about `label`.
    private static func decoding<Value>(_ label: String, _ body: () throws(ImagingError) -> Value)
        throws(PhotoScanProblem) -> Value
    {
        do {
            return try body()
        } catch {
            if case .decoderMissing = error {
                throw PhotoScanProblem(message: "\(label): \(error.description)", kind: .decoderMissing)
            }
            throw PhotoScanProblem(message: "\(label): \(error.description)", kind: .undecodable)
        }
    }
}

/// Why a photo gave no ID: the line said about it, and what kind of failure it is.
public struct PhotoScanProblem: Error, CustomStringConvertible {
    /// What kind of failure (the CLI's exit status follows it).
    public enum Kind: Sendable {
        /// The photo was read, and no barcode found on it.
        case nothingFound
        /// The file cannot be read.
        case unreadable
        /// The file is empty or not an image gymcard decodes.
        case undecodable
        /// The library that decodes its format is not installed.
        case decoderMissing
        /// A 2D symbol was read whose bytes are no text in the character set it names.
        case undecodableText
    }

    /// The line about the photo (its name first).
    public var message: String
    /// What kind of failure.
    public var kind: Kind
    /// Barcodes that are no member ID, found on the way (`--all` lists them).
    public var others: [ScanFinding] = []
    /// How long the last page's scan took.
    public var milliseconds = 0
    /// Whether the time allowed ran out before every page was looked at closely (more time might find one).
    public var timeRanOut = false

    /// The line about the photo.
    public var description: String { message }
}

import Codabar
import Imaging
import Scanner

/// `scan`: the IDs on one photo (every page of a multi-page TIFF, until one reads).
public enum PhotoScan {
    /// A photo's reads: each distinct ID with the finding that gave it, the best first.
    public struct Reads: Sendable {
        /// The IDs and how each was read.
        public var reads: [(finding: ScanFinding, symbol: CodabarSymbol)]
        /// How long the last page's scan took.
        public var milliseconds: Int
    }

    /// Scans the photo at `path` (`-` is standard input; `name` is what messages call it). With `all`,
    /// every page and every distinct barcode, else the first page that reads, its best ID.
    public static func scan(_ path: String, name: String, with scanner: BarcodeScanner, all: Bool)
        throws(PhotoScanProblem) -> Reads
    {
        let started = ContinuousClock.now
        let bytes = try readPhoto(path)
        let pageCount = try decoding(name) { () throws(ImagingError) in try ImageFile.pageCount(bytes) }
        var ids: [(ScanFinding, CodabarSymbol)] = []
        var firstDiagnosis: ScanDiagnosis?
        var report: ScanReport?
        var pagesScanned = 0
        // The pages share the photo's budget: a page is begun only while it lasts (the first always), so a
        // long document takes no more than a photo. The first page that reads ends the scan, unless --all
        // asks for every barcode on every page.
        for page in 0..<pageCount where all || ids.isEmpty {
            if page > 0, ContinuousClock.now - started > scanner.timeBudget { break }
            pagesScanned += 1
            let label = pageCount > 1 ? "\(name) (page \(page + 1) of \(pageCount))" : name
            let image = try decoding(label) { () throws(ImagingError) in
                try ImageFile.decodeGray(bytes, page: page, minimumLongSide: BarcodeScanner.decodeSide)
            }
            let pageReport = scanner.scan(
                image,
                fullResolution: {
                    try? ImageFile.decodeGray(
                        bytes, page: page, minimumLongSide: BarcodeScanner.fullResolutionSide)
                },
                findAll: all, startedAt: started)
            for finding in pageReport.findings {
                guard let symbol = try? CodabarSymbol(normalizing: finding.text),
                    !ids.contains(where: { $0.1 == symbol })
                else { continue }
                ids.append((finding, symbol))
            }
            if firstDiagnosis == nil { firstDiagnosis = pageReport.diagnosis }
            report = pageReport
        }
        guard let report, !ids.isEmpty else {
            let diagnosis = firstDiagnosis ?? .nothingFound
            let message =
                pageCount == 1
                ? diagnosis.description
                : pagesScanned == pageCount
                    ? "no barcode found on any of its \(pageCount) pages"
                    : "no barcode found on its first \(pagesScanned) of \(pageCount) pages; the time allowed ran "
                        + "out before the others (give more with --budget)"
            throw PhotoScanProblem(message: "\(name): \(message)", kind: .nothingFound)
        }
        let milliseconds =
            Int(report.elapsed.components.seconds * 1000)
            + Int(report.elapsed.components.attoseconds / 1_000_000_000_000_000)
        return Reads(reads: ids.map { (finding: $0.0, symbol: $0.1) }, milliseconds: milliseconds)
    }

    /// The photo's bytes; a file that cannot be read is a missing input, an empty one bad data.
    private static func readPhoto(_ path: String) throws(PhotoScanProblem) -> [UInt8] {
        do {
            return try ImageFile.readBytes(path: path)
        } catch {
            if case .empty = error { throw PhotoScanProblem(message: error.description, kind: .undecodable) }
            throw PhotoScanProblem(message: error.description, kind: .unreadable)
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
    }

    /// The line about the photo (its name first).
    public var message: String
    /// What kind of failure.
    public var kind: Kind

    /// The line about the photo.
    public var description: String { message }
}

import ArgumentParser
import Codabar
import FoundationEssentials
import Imaging
import JSONOutput
import Scanner
import TerminalText

/// `gymcard scan`: read the member card's barcode off photos.
struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read the barcode off photos of a member card.",
        discussion: """
            Prints the normalized ID of each photo (JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM; - reads standard \
            input), prefixed by the file name when several are given. Every page of a multi-page TIFF is \
            scanned (sharing the --budget when one is given) until one reads (with --all, every page). \
            Every stage of the reading cascade that applies runs, so a photo gives the same result on a \
            loaded machine as on an idle one; --budget trades that for speed. Rotated, noisy, unevenly lit and 12 MP phone photos are \
            handled; a read that is not confirmed is never printed. A photo with no barcode prints \
            nothing and gives exit status 1, with a hint on standard error. With several photos the exit \
            status is the worst: 69 (a HEIC or AVIF photo without libheif, a WebP without libwebp, a TIFF \
            without libtiff), then 66, then 65, then 1.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Photos to read (JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM); - is standard input.",
            valueName: "photo"))
    var photos: [String]

    @Flag(
        name: .long,
        help: """
            Print one JSON object per line: file, id, symbology, stage, confirmations and milliseconds for \
            a read; file, error and status (the exit status it gives) for a photo that failed.
            """)
    var json = false

    @Flag(name: [.short, .long], help: "Print every distinct barcode found instead of the best one.")
    var all = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Stop trying after about this many seconds per photo: faster, but what is read then depends on the machine's speed and load. Without it every stage runs, so a photo reads the same on any machine.",
            valueName: "seconds"))
    var budget: Double?

    @Flag(name: .long, help: "Store the ID that was read (from the first photo that reads) as the card.")
    var save = false

    @Flag(name: .customLong("no-passphrase"), help: "With --save: store the card without a passphrase.")
    var noPassphrase = false

    @OptionGroup var passphrases: PassphraseOptions

    func validate() throws {
        if let budget, !(budget > 0 && budget <= 60) {
            throw ValidationError("--budget must be more than 0 and at most 60 seconds")
        }
        guard photos.filter({ $0 == "-" }).count <= 1 else {
            throw ValidationError("standard input (-) can be read only once")
        }
    }

    func run() throws {
        // libzbar is loaded on first use; without it every photo would read as "no barcode found".
        guard ZBarReader.isAvailable else {
            throw Failure(
                "libzbar is not installed, so photos cannot be scanned; install it (Debian: apt install libzbar0)",
                status: .unavailable)
        }
        let scanner = BarcodeScanner(timeBudget: budget.map { .milliseconds(Int($0 * 1000)) })
        var worst = ExitStatus.success
        var saved = false
        for photo in photos {
            do {
                let symbol = try scan(photo, with: scanner)
                if save, !saved {
                    try CardAccess(passphrases: passphrases, offersNoPassphrase: true).store(
                        symbol, label: nil, noPassphrase: noPassphrase)
                    saved = true
                }
            } catch let failure as Failure {
                Terminal.standardError.say(failure.message)
                if json {
                    let name = photo == "-" ? "standard input" : photo
                    print(
                        JSONText.line(
                            ScanFailureLine(
                                file: name, error: failure.message, status: failure.status.rawValue)))
                }
                worst = Self.worse(worst, failure.status)
            }
        }
        if worst != .success { throw Failure.silent(worst) }
    }

    /// Scans one photo (every page of a multi-page TIFF, until one reads), prints its result, and returns
    /// the best ID.
    private func scan(_ path: String, with scanner: BarcodeScanner) throws -> CodabarSymbol {
        let name = path == "-" ? "standard input" : path
        let started = ContinuousClock.now
        let bytes = try readPhoto(path)
        let pageCount = try decoding(name) { () throws(ImagingError) in try ImageFile.pageCount(bytes) }
        var ids: [(ScanFinding, CodabarSymbol)] = []
        var firstDiagnosis: ScanDiagnosis?
        var report: ScanReport?
        var pagesScanned = 0
        // The pages share the photo's --budget, when one is given, and the safety limit: a page is begun
        // only while they last (the first always). The first page that reads ends the scan, unless --all
        // asks for every barcode on every page.
        for page in 0..<pageCount where all || ids.isEmpty {
            let spent = ContinuousClock.now - started
            if page > 0, spent > scanner.safetyLimit || scanner.timeBudget.map({ spent > $0 }) == true {
                break
            }
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
            throw Failure("\(name): \(message)", status: .nothingFound)
        }
        let milliseconds =
            Int(report.elapsed.components.seconds * 1000)
            + Int(report.elapsed.components.attoseconds / 1_000_000_000_000_000)
        for (finding, symbol) in all ? ids : [ids[0]] {
            if json {
                let line = ScanLine(
                    file: name, id: symbol.text, symbology: finding.symbology.rawValue, stage: finding.stage,
                    confirmations: finding.confirmations, milliseconds: milliseconds)
                print(JSONText.line(line))
            } else {
                print(photos.count > 1 ? "\(name.terminalSafe): \(symbol.text)" : symbol.text)
            }
        }
        return ids[0].1
    }

    /// The photo's bytes; a file that cannot be read is 66, an empty one 65.
    private func readPhoto(_ path: String) throws -> [UInt8] {
        do {
            return try ImageFile.readBytes(path: path)
        } catch {
            if case .empty = error { throw Failure(error.description, status: .dataError) }
            throw Failure(error.description, status: .noInput)
        }
    }

    /// The body's result, or its decoding error as the line said about `label`: 69 when the library that
    /// reads the format is missing, else 65.
    private func decoding<Value>(_ label: String, _ body: () throws(ImagingError) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            if case .decoderMissing = error {
                throw Failure("\(label): \(error.description)", status: .unavailable)
            }
            throw Failure("\(label): \(error.description)", status: .dataError)
        }
    }

    private static func worse(_ lhs: ExitStatus, _ rhs: ExitStatus) -> ExitStatus {
        let order: [ExitStatus] = [
            .success, .nothingFound, .dataError, .noInput, .unavailable, .usage, .ioError, .wrongPassphrase,
        ]
        return (order.firstIndex(of: rhs) ?? 0) > (order.firstIndex(of: lhs) ?? 0) ? rhs : lhs
    }
}

/// One line of `scan --json`: a read.
struct ScanLine: Encodable {
    var file: String
    var id: String
    var symbology: String
    var stage: String
    var confirmations: Int
    var milliseconds: Int
}

/// One line of `scan --json`: a photo that gave no ID, with the message said on standard error.
struct ScanFailureLine: Encodable {
    var file: String
    var error: String
    var status: Int32
}

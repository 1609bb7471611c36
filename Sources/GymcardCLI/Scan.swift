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
            scanned, sharing the budget fairly, until one reads (with --all, every page). Rotated, noisy, unevenly lit and 12 MP phone photos are \
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
            a read (with --all, text instead of id for a barcode that is no member ID); file, error and \
            status (the exit status it gives) for a photo that failed.
            """)
    var json = false

    @Flag(
        name: [.short, .long],
        help: """
            Print every distinct barcode found instead of the best one; after the IDs, also a QR code that is \
            no member ID (a web address), as its text (never taken for the ID).
            """)
    var all = false

    @Option(name: .long, help: ArgumentHelp("Time allowed per photo, in seconds.", valueName: "seconds"))
    var budget: Double = 2

    @Flag(name: .long, help: "Store the ID that was read (from the first photo that reads) as the card.")
    var save = false

    @Flag(name: .customLong("no-passphrase"), help: "With --save: store the card without a passphrase.")
    var noPassphrase = false

    @OptionGroup var passphrases: PassphraseOptions

    func validate() throws {
        guard budget > 0, budget <= 60 else {
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
        let scanner = BarcodeScanner(timeBudget: .milliseconds(Int(budget * 1000)))
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
        // What else a QR code held (a web address): listed by --all, never taken for the ID.
        var others: [ScanFinding] = []
        var firstDiagnosis: ScanDiagnosis?
        var foreignQR: ScanDiagnosis?
        var report: ScanReport?
        func scanPage(_ page: Int, with scanner: BarcodeScanner, startedAt: ContinuousClock.Instant) throws {
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
                findAll: all, startedAt: startedAt)
            for finding in pageReport.findings {
                guard let symbol = try? CodabarSymbol(normalizing: finding.text) else {
                    if !others.contains(where: { $0.text == finding.text }) { others.append(finding) }
                    continue
                }
                guard !ids.contains(where: { $0.1 == symbol }) else { continue }
                ids.append((finding, symbol))
            }
            report = pageReport
        }
        // The pages share the photo's budget fairly: each is begun with its share of what is left (the
        // time the pages before it did not use, divided among it and those after it), so a cover sheet
        // before the card's page, blank or printed, cannot spend the budget before that page is read, and
        // every page gets at least the cascade's first stages. The first page that reads ends the scan,
        // unless --all asks for every barcode on every page.
        for page in 0..<pageCount where all || ids.isEmpty {
            let left = scanner.timeBudget - (ContinuousClock.now - started)
            let share = pageCount == 1 ? scanner.timeBudget : Swift.max(.zero, left / (pageCount - page))
            let pageScanner = BarcodeScanner(timeBudget: share, workingSide: scanner.workingSide)
            try scanPage(page, with: pageScanner, startedAt: pageCount == 1 ? started : ContinuousClock.now)
            if firstDiagnosis == nil { firstDiagnosis = report?.diagnosis }
            if case .onlyForeignQRCode = report?.diagnosis, foreignQR == nil { foreignQR = report?.diagnosis }
        }
        guard let report, !ids.isEmpty else {
            if all, let report { printOthers(others, of: name, in: report) }
            let diagnosis = firstDiagnosis ?? .nothingFound
            let message: String
            if pageCount == 1 {
                message = diagnosis.description
            } else if let foreignQR {
                // "No barcode found" would not be true of a document with a web address's QR code.
                message = "no member ID on any of its \(pageCount) pages: \(foreignQR.description)"
            } else if ContinuousClock.now - started <= scanner.timeBudget {
                message = "no barcode found on any of its \(pageCount) pages"
            } else {
                message =
                    "no barcode found on any of its \(pageCount) pages in the time allowed, which ran out "
                    + "before every page was looked at closely (give more with --budget)"
            }
            throw Failure("\(name): \(message)", status: .nothingFound)
        }
        for (finding, symbol) in all ? ids : [ids[0]] {
            if json {
                let line = ScanLine(
                    file: name, id: symbol.text, symbology: finding.symbology.rawValue, stage: finding.stage,
                    confirmations: finding.confirmations, milliseconds: Self.milliseconds(report.elapsed))
                print(JSONText.line(line))
            } else {
                print(photos.count > 1 ? "\(name.terminalSafe): \(symbol.text)" : symbol.text)
            }
        }
        if all { printOthers(others, of: name, in: report) }
        return ids[0].1
    }

    /// With --all, the barcodes that are no member ID (a QR code's web address), after the IDs: as text
    /// made safe for a terminal, or as JSON lines with `text` instead of `id`.
    private func printOthers(_ others: [ScanFinding], of name: String, in report: ScanReport) {
        for finding in others {
            if json {
                let line = ScanOtherLine(
                    file: name, text: finding.text, symbology: finding.symbology.rawValue,
                    stage: finding.stage,
                    confirmations: finding.confirmations, milliseconds: Self.milliseconds(report.elapsed))
                print(JSONText.line(line))
            } else {
                let text = finding.text.terminalSafe
                print(photos.count > 1 ? "\(name.terminalSafe): \(text)" : text)
            }
        }
    }

    private static func milliseconds(_ elapsed: Duration) -> Int {
        Int(elapsed.components.seconds * 1000) + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
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

/// One line of `scan --json --all`: a barcode that is no member ID (a QR code's web address).
struct ScanOtherLine: Encodable {
    var file: String
    var text: String
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

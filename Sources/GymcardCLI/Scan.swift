import ArgumentParser
import CampusFeature
import CardFeature
import Console
import GymcardCore

/// `gymcard scan`: read the member card's barcode off photos.
struct Scan: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read the barcode off photos of a member card.",
        discussion: """
            Prints the ID of each photo (JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM; - reads standard \
            input) exactly as its barcode holds it, prefixed by the file name when several are given: \
            Codabar with its start and stop letters, Code 39, Code 93, Code 128, Interleaved 2 of 5, \
            EAN-8, EAN-13, UPC-A, UPC-E and QR, and with zxing-cpp PDF417, Data Matrix (libdmtx too) and \
            Aztec. A card \
            is what its barcode is: a QR code holding nine digits is a QR card (--save on a terminal asks \
            whether to store it as the Codabar card it may stand for), and a 2D code's text is read in the \
            character set it names; one whose bytes are not that text prints nothing (65). A QR code \
            holding a web address or another URI phones act on is no ID. A photo that holds several \
            different IDs prints the first and says so (--all lists them); --save asks which on a \
            terminal, else stores nothing, prints them all and exits 64. Every page of a multi-page TIFF is \
            scanned (the pages share the --budget fairly when one is given) until one reads a Codabar \
            (after another symbology's ID, the later pages' first stages still look for one; with --all, \
            every page). Every stage of the reading cascade that applies runs, so a photo gives the same \
            result on a loaded machine as on an idle one; --budget trades that for speed. Rotated, noisy, \
            unevenly lit and 12 MP phone photos are \
            handled; a read that is not confirmed is never printed. A photo with no barcode prints \
            nothing and gives exit status 1, with a hint on standard error. With several photos the exit \
            status is the worst: 69 (a HEIC or AVIF photo without libheif, a WebP without libwebp, a TIFF \
            without libtiff), then 66, then 65, then 1.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Photos to read (JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM); - is standard input.",
            valueName: "photo"),
        completion: .photos)
    var photos: [String]

    @Flag(
        name: .long,
        help: """
            Print one JSON object per line: file, id, symbology (the barcode's, as --symbology names it), \
            stage, confirmations and milliseconds for \
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

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Stop trying after about this many seconds per photo: faster, but what is read then depends on the machine's speed and load. Without it every stage runs, so a photo reads the same on any machine.",
            valueName: "seconds"))
    var budget: Double?

    @Flag(
        name: .long,
        help: """
            Store the ID that was read (from the first photo that reads) as the card, with its symbology; \
            the whole photo is looked at, and of several IDs the one chosen on a terminal. On a terminal, \
            asks before replacing a card with another ID, which is kept (see card --restore).
            """)
    var save = false

    @Flag(name: .customLong("no-passphrase"), help: "With --save: store the card without a passphrase.")
    var noPassphrase = false

    @Flag(name: [.short, .long], help: "With --save: replace a card with another ID without asking.")
    var yes = false

    @OptionGroup var passphrases: PassphraseOptions

    func validate() throws {
        if let budget, !(budget > 0 && budget <= 60) {
            throw ValidationError("--budget must be more than 0 and at most 60 seconds")
        }
        guard photos.filter({ $0 == "-" }).count <= 1 else {
            throw ValidationError("standard input (-) can be read only once")
        }
    }

    func run(in context: Context) throws {
        let scanner = BarcodeScanner(timeBudget: budget.map { .milliseconds(Int($0 * 1000)) })
        let output = PhotoScan.Output(json: json, all: all, namesPhotos: photos.count > 1)
        var worst = ExitStatus.success
        let store: (BarcodeContent) throws -> Void = { read in
            try CardStoring.store(
                Self.asStored(read, asking: !yes, say: context.warn), label: nil, noPassphrase: noPassphrase,
                passphrases: passphrases, askFirst: !yes, in: context)
        }
        try PhotoScan.scanEach(
            photos, with: scanner, output: output, save: save ? store : nil, choose: Self.chooseOnTerminal,
            emit: Terminal.standardOutput.line,
            several: { name, cards in
                let kinds = cards.map(\.symbology.displayName).joined(separator: ", ")
                context.warn(
                    "\(name.terminalSafe) holds \(cards.count) different IDs (\(kinds)); the first is printed: "
                        + "gymcard scan --all lists them")
            }
        ) { name, error in
            guard let failure = ExitTable.failure(for: error) else { throw error }
            Terminal.standardError.say(failure.message)
            if let line = output.failureLine(
                of: name, message: failure.message, status: failure.status.rawValue)
            {
                Terminal.standardOutput.line(line)
            }
            worst = Self.worse(worst, failure.status)
        }
        if worst != .success { throw Failure.silent(worst) }
    }

    /// The card `scan --save` stores for a read: what the barcode is. A 2D code holding a Codabar ID (gymcard's
    /// companion QR code, or nine digits) may stand for a Codabar card: on a terminal the person is asked
    /// (unless `--yes`), elsewhere it is stored as read and the way to store it as Codabar is said.
    static func asStored(_ read: BarcodeContent, asking: Bool, say: (String) -> Void) -> BarcodeContent {
        guard let codabar = read.codabarReading else { return read }
        let kind = read.symbology.displayName
        if asking, TerminalPrompt.isAvailable {
            let question =
                "This \(kind) holds a Codabar ID, the barcode most member cards carry. Store the card as "
                + "Codabar instead of \(kind)? [y/N] "
            if TerminalPrompt.confirm(question) == true { return codabar }
            return read
        }
        say(
            "note: the \(kind) holds a Codabar ID; it is stored as a \(kind) card. To store it as Codabar: "
                + "gymcard scan PHOTO | gymcard set --symbology codabar")
        return read
    }

    /// Which of a photo's IDs to store, asked on the terminal; `nil` without one, or when none is chosen.
    static func chooseOnTerminal(_ cards: [BarcodeContent]) throws -> BarcodeContent? {
        guard TerminalPrompt.isAvailable else { return nil }
        Terminal.standardError.say("the photo holds \(cards.count) different IDs:")
        let outcome = try NumberedChoice.pick(
            cards.map { "\($0.displayText) (\($0.symbology.displayName))" }, question: "Which one to store?",
            list: { Terminal.standardError.write($0 + "\n") }, say: { Terminal.standardError.say($0) },
            ask: { try TerminalPrompt.answer($0, echo: true).map { String(decoding: $0, as: UTF8.self) } })
        guard case .picked(let index) = outcome else { return nil }
        return cards[index]
    }

    private static func worse(_ lhs: ExitStatus, _ rhs: ExitStatus) -> ExitStatus {
        let order: [ExitStatus] = [
            .success, .nothingFound, .dataError, .noInput, .unavailable, .usage, .ioError, .wrongPassphrase,
        ]
        return (order.firstIndex(of: rhs) ?? 0) > (order.firstIndex(of: lhs) ?? 0) ? rhs : lhs
    }
}

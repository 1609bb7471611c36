import ArgumentParser
import CampusFeature
import CardFeature
import Console
import Glibc
import GymcardCore
import Turnstile

/// `gymcard export`: the stored card as a Catima export, for the phone.
struct ExportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the stored card as a Catima export (.zip or .csv) to open on a phone.",
        discussion: """
            The zip (or the CSV inside it) is what Catima, the open card keeper for Android, imports: the \
            card's barcode type and exact text (Codabar with its start and stop letters), its label as the \
            store name ("Hokie Passport" for a VT ID without one), its text encoding; a card imported from \
            Catima goes back with its encoding, header colour and card ID. --password or --password-file encrypts \
            the zip with AES-256, as Catima does. An existing file is replaced only with --force; a device \
            or FIFO is written in place. The stored card's passphrase is asked for first.
            """)

    @Argument(
        help: ArgumentHelp("name.zip, name.csv, or - for the CSV on standard output.", valueName: "file"),
        completion: .file(extensions: ["zip", "csv"]))
    var file: String

    @Option(
        help: ArgumentHelp(
            "zip or csv, when the file name ends in neither (a name that ends in the other is refused).",
            valueName: "format"))
    var format: CardExport.Format?

    @Flag(help: "Encrypt the zip with a password typed on the terminal (twice).")
    var password = false

    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp(
            "Encrypt the zip with the first line of <file> as its password.", valueName: "file"),
        completion: .file())
    var passwordFile: String?

    @Flag(name: [.short, .long], help: "Replace an existing file; write a zip to a terminal.")
    var force = false

    @OptionGroup var passphrases: PassphraseOptions

    func run(in context: Context) throws {
        let format = try CardExport.format(of: file, given: format)
        if format == .zip {
            try OutputFile.checkBinary(to: file, what: "a zip archive", example: "card.zip", force: force)
        }
        let access = CardAccess(context: context, passphrases: passphrases.passphrases())
        let written = try CardExport.export(
            access, to: file, format: format,
            password: password || passwordFile != nil ? .terminal(file: passwordFile) : nil, replacing: force,
            write: NamedOutput.writer(to: file))
        Terminal.standardError.write(written.summary(to: file) + "\n")
    }
}

extension CardExport.Format: ExpressibleByArgument {}

extension ZipPassword {
    /// The password from `file`, else asked on `/dev/tty` with echo off.
    static func terminal(file: String?) -> ZipPassword {
        ZipPassword(
            file: file, ask: { try TerminalPrompt.answer($0, echo: false) },
            canAsk: { TerminalPrompt.isAvailable })
    }
}

/// `gymcard import`: a card from Catima, stored as `set` stores one.
struct ImportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store a card from Catima: its export (.zip or .csv) or a share link.",
        discussion: """
            Reads a Catima export (a zip, with its password when encrypted; a CSV of version 1 or 2), a \
            share link (https://catima.app/share#…, or the two older hosts, in every form Catima opens), \
            or a file or pipe holding one (<(cat link.txt) works). Without <file>, the link is read from \
            standard input or asked for on the terminal, which keeps the card's ID out of the process \
            list. When the file holds several cards, --store picks one; otherwise only cards with a \
            barcode gymcard can draw are offered: the only one is taken, several are asked for on the \
            terminal, else listed (exit 64). The card is stored as `set` stores one, with its symbology, \
            text encoding and header colour; a Codabar value without start/stop letters gets A and B.
            """)

    @Argument(
        help: ArgumentHelp(
            "A Catima export, a file holding a share link, or - (standard input).", valueName: "file"),
        completion: .file(extensions: ["zip", "csv", "txt"]))
    var file: String?

    @Option(help: ArgumentHelp("Take the card of this store when there are several.", valueName: "name"))
    var store: String?

    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp("Read the zip's password from the first line of <file>.", valueName: "file"),
        completion: .file())
    var passwordFile: String?

    @Flag(name: .customLong("no-passphrase"), help: "Store the card without a passphrase (not encrypted).")
    var noPassphrase = false

    @OptionGroup var passphrases: PassphraseOptions

    func run(in context: Context) throws {
        let source = try CardImport.Source(
            argument: file, standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
            ask: { try TerminalPrompt.answer($0, echo: true) })
        if file != nil, case .link = source { context.warn(CardImport.linkOnCommandLine) }
        let cards = try CardImport.cards(
            in: source, password: .terminal(file: passwordFile), say: context.warn)
        let card = try CardImport.choose(
            from: cards, store: store, list: { Terminal.standardError.write($0 + "\n") },
            ask: { try TerminalPrompt.answer($0, echo: true).map { String(decoding: $0, as: UTF8.self) } })
        let access = CardAccess(context: context, passphrases: passphrases.passphrases(offersNone: true))
        let stored = try CardImport.store(card, access: access, noPassphrase: noPassphrase, say: context.warn)
        Terminal.standardError.write(stored.summary + "\n")
        if !stored.encrypted { Terminal.standardError.warnUnencrypted(access.store) }
    }
}

/// `gymcard share`: the card as a QR code that opens it in Catima on a phone.
struct ShareCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Show the stored card as a QR code that a phone's camera opens in Catima.",
        discussion: """
            The code is Catima's share link (https://catima.app/share#…, with the fields Catima's own \
            links carry, barcodeencoding included), drawn like `show --qr`: full \
            screen on a terminal (a real image where the terminal draws them), else printed. It carries \
            the card's ID, and gymcard says so first. --url prints the link only; --png writes the code.
            """)

    @Flag(help: "Print only the share link.")
    var url = false

    @Option(
        help: ArgumentHelp("Write the QR code as a PNG image (- for standard output).", valueName: "file"),
        completion: .file(extensions: ["png"]))
    var png: String?

    @Flag(help: "Print the QR code into the scrollback instead of taking the screen.")
    var inline = false

    @Flag(name: [.short, .long], help: "Write a PNG to standard output even when it is a terminal.")
    var force = false

    @OptionGroup var passphrases: PassphraseOptions

    func run(in context: Context) throws {
        try OutputFile.checkBinary(to: png, what: "a PNG", force: force)
        let access = CardAccess(context: context, passphrases: passphrases.passphrases())
        let share = try CardShare(access, say: Terminal.standardError.say)
        if url { return Terminal.standardOutput.line(share.link) }
        if let png { return try NamedOutput.write(try share.png(), to: png) }
        let code = try share.qrSymbol()
        let screen = CardScreen(context, noColor: false)
        if !inline,
            try screen.fullScreen(
                TurnstileContent(
                    drawing: .qr(code), caption: "open it with the phone's camera: Catima imports the card",
                    label: share.store, hint: "any key closes"),
                renderer: nil, timeout: 60)
        {
            return
        }
        try screen.draw(.qr(code), qrCode: nil, what: "QR code", imageOption: "--png <file>")
    }
}

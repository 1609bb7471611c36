import CardVault
import Codabar
import Glibc
import GymcardCore
import Symbologies
import Symbols

/// The symbol a command draws: an ID given on the command line or in a batch, or the stored card's.
public enum CardSymbol {
    /// The card text for `id` in `symbology` (Codabar unless told: what an unknown card is taken to be),
    /// normalized, a Codabar one with the mod-16 check character when `checkCharacter`. An ID that looks
    /// like a Virginia Tech ID with a digit too many or too few is used as typed, with a warning.
    public static func content(
        for id: String, symbology: Symbology = .codabar, checkCharacter: Bool = false, warn: (String) -> Void
    ) throws(InvalidID) -> BarcodeContent {
        guard symbology == .codabar else {
            let content: BarcodeContent
            do { content = try BarcodeContent(symbology: symbology, normalizing: id) } catch {
                throw InvalidID(reason: error)
            }
            if let note = scanNote(for: content) { warn(note) }
            return content
        }
        return try codabar(symbol(for: id, checkCharacter: checkCharacter, warn: warn))
    }

    /// What to say before drawing or storing a 2D card that `gymcard scan` will not take for a member ID:
    /// one holding a web address or another URI phones act on (what a poster's code holds), which scan
    /// lists only with `--all` (ARCHITECTURE §13). `nil` for any other card.
    public static func scanNote(for content: BarcodeContent) -> String? {
        guard content.symbology.isTwoDimensional, BarcodeContent.isAddress(content.text) else { return nil }
        return
            "note: this \(content.symbology.displayName) holds a web address or another URI, which gymcard scan "
            + "takes for a poster's code, not a member ID (scan --all lists it)"
    }

    /// The Codabar symbol for `id`, as ``content(for:symbology:checkCharacter:warn:)`` makes it.
    public static func symbol(for id: String, checkCharacter: Bool = false, warn: (String) -> Void)
        throws(InvalidID)
        -> CodabarSymbol
    {
        let symbol: CodabarSymbol
        do { symbol = try CodabarSymbol(normalizing: id) } catch { throw InvalidID(reason: .codabar(error)) }
        if CodabarSymbol.looksLikeMistypedVirginiaTechID(id) {
            let digits = id.filter(\.isNumber).count
            warn("warning: the ID has \(digits) digits, so it is not a 9-digit VT ID; it is used as typed")
        }
        let finished = try finished(symbol, checkCharacter: checkCharacter)
        if finished.text.count < 4 {
            warn(
                "warning: the ID is a single character: libzbar, zxing-cpp and many scanners read no Codabar "
                    + "that short (they need 2 or more between the start and stop letters); check that it is whole"
            )
        }
        return finished
    }

    /// The stored card's text (unlocking it) and label; a Codabar card with the mod-16 check character
    /// when `checkCharacter`.
    public static func stored(_ access: CardAccess, checkCharacter: Bool) throws -> (
        content: BarcodeContent, label: String?
    ) {
        let card = try access.unlock()
        let content = try card.record.content()
        guard checkCharacter, content.symbology == .codabar else { return (content, card.record.label) }
        return (try codabar(finished(try card.record.symbol(), checkCharacter: true)), card.record.label)
    }

    /// `set` without an ID: the first line of `input` when it is no terminal (with `--passphrase-fd 0`
    /// the passphrase follows it, and stays unread), else the answer `ask` gets on the terminal.
    ///
    /// - Throws: ``NoIDGiven`` when neither gives one; what `ask` throws.
    public static func readID(from input: Int32 = STDIN_FILENO, ask: () throws -> [UInt8]?) throws -> String {
        if isatty(input) == 0 {
            let line = Passphrases.firstLine(of: input)
            if !line.isEmpty { return String(decoding: line, as: UTF8.self) }
        }
        guard let answer = try ask() else { throw NoIDGiven() }
        return String(decoding: answer, as: UTF8.self)
    }

    private static func codabar(_ symbol: CodabarSymbol) throws(InvalidID) -> BarcodeContent {
        do { return try BarcodeContent(symbology: .codabar, normalizing: symbol.text) } catch {
            throw InvalidID(reason: error)
        }
    }

    private static func finished(_ symbol: CodabarSymbol, checkCharacter: Bool) throws(InvalidID)
        -> CodabarSymbol
    {
        guard checkCharacter else { return symbol }
        do { return try symbol.addingCheckCharacter() } catch { throw InvalidID(reason: .codabar(error)) }
    }
}

/// A card's text ready to draw: Codabar by gymcard's own encoder (in the layout the command asks for),
/// every other symbology as libzint's modules.
public enum CardDrawing: Sendable {
    /// A Codabar symbol.
    case codabar(CodabarSymbol)
    /// Any other symbology's modules.
    case matrix(ModuleMatrix)

    /// The drawing of `content`. libzint is loaded here, and only for a symbology other than Codabar.
    public init(_ content: BarcodeContent) throws(SymbolFileProblem) {
        if content.symbology == .codabar, let symbol = try? CodabarSymbol(normalizing: content.text) {
            self = .codabar(symbol)
            return
        }
        do { self = .matrix(try ModuleMatrix(encoding: content)) } catch {
            if case .zintUnavailable = error { throw .drawerMissing(error.description) }
            throw .cannotDraw(error.description)
        }
    }
}

/// No ID on standard input, and no terminal to ask for one on.
public struct NoIDGiven: Error, CustomStringConvertible {
    /// What happened, and how to give one.
    public var description: String { "no ID given: pass it on standard input or run on a terminal" }
}

/// An ID that the symbology cannot carry (never echoing the ID itself beyond what the reason says).
public struct InvalidID: Error, CustomStringConvertible {
    /// What is wrong with it: the character, its position and what the symbology accepts.
    public var reason: SymbologyError

    /// "invalid ID: …".
    public var description: String { "invalid ID: \(reason.description)" }
}

import CardVault
import Codabar

/// The symbol a command draws: an ID given on the command line or in a batch, or the stored card's.
public enum CardSymbol {
    /// The symbol for `id`, normalized, with the mod-16 check character when `checkCharacter`. An ID that
    /// looks like a Virginia Tech ID with a digit too many or too few is used as typed, with a warning.
    public static func symbol(for id: String, checkCharacter: Bool = false, warn: (String) -> Void)
        throws(InvalidID)
        -> CodabarSymbol
    {
        let symbol: CodabarSymbol
        do { symbol = try CodabarSymbol(normalizing: id) } catch { throw InvalidID(reason: error) }
        if CodabarSymbol.looksLikeMistypedVirginiaTechID(id) {
            let digits = id.filter(\.isNumber).count
            warn("warning: the ID has \(digits) digits, so it is not a 9-digit VT ID; it is used as typed")
        }
        return try finished(symbol, checkCharacter: checkCharacter)
    }

    /// The stored card's symbol (unlocking it) and label.
    public static func stored(_ access: CardAccess, checkCharacter: Bool) throws -> (
        symbol: CodabarSymbol, label: String?
    ) {
        let card = try access.unlock()
        return (try finished(try card.record.symbol(), checkCharacter: checkCharacter), card.record.label)
    }

    private static func finished(_ symbol: CodabarSymbol, checkCharacter: Bool) throws(InvalidID)
        -> CodabarSymbol
    {
        guard checkCharacter else { return symbol }
        do { return try symbol.addingCheckCharacter() } catch { throw InvalidID(reason: error) }
    }
}

/// An ID that is not a Codabar symbol (never echoing the ID itself beyond what the reason says).
public struct InvalidID: Error, CustomStringConvertible {
    /// What is wrong with it.
    public var reason: CodabarError

    /// "invalid ID: …".
    public var description: String { "invalid ID: \(reason.description)" }
}

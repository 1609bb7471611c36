import CardVault
import Catima
import GymcardCore
import Imaging
import Symbols

/// `share`: the stored card as Catima's share link, and that link as a QR code a phone's camera opens in
/// Catima.
public struct CardShare: Sendable {
    /// Said on standard error before anything else: the code is the card.
    public static let notice =
        "the code carries the card's ID: whoever scans it, or sees the link, has a copy of the card"

    /// The card as Catima gets it.
    public var card: CatimaCard
    /// The share link (`https://catima.app/share#…`).
    public var link: String
    /// The store name the card has in Catima.
    public var store: String { card.store }

    /// `share`: says ``notice`` (the code carries the card's ID) once there is a card, then unlocks it.
    ///
    /// - Throws: ``VaultError/noCard`` when there is none (nothing said then); what unlocking throws.
    public init(_ access: CardAccess, say: (String) -> Void) throws {
        guard access.store.protection() != nil else { throw VaultError.noCard }
        say(Self.notice)
        try self.init(access)
    }

    /// The stored card's share, after its passphrase when it has one.
    public init(_ access: CardAccess) throws {
        card = try CardExport.catimaCard(access)
        link = CatimaShareLink.link(for: card)
    }

    /// The link as a QR code.
    public func qrSymbol() throws(SymbolFileProblem) -> QRSymbol {
        do { return try QRSymbol(encoding: link) } catch { throw .cannotDraw(error.description) }
    }

    /// The QR code as a PNG, 4 pixels per module (a Virginia Tech card: 53 modules, 244 pixels square).
    public func png() throws(SymbolFileProblem) -> [UInt8] {
        let image = try qrSymbol().image(moduleSize: 4)
        do { return try PNGCodec.encode(image) } catch { throw .cannotEncode(error.description) }
    }
}

/// Catima's card share links (its `CARD_SHARING_URL_FORMAT.md`, and `ImportURIHelper` in its source).
///
/// Since Catima 2.0 a link is `https://catima.app/share#` and a fragment that keeps the card off the
/// server: the fields `key=value` joined with `&`, each value encoded with Java's `URLEncoder` (UTF-8,
/// space as `+`, all but `A-Z a-z 0-9 . - * _` as `%XX`), then the whole fragment encoded again with
/// Android's `Uri.encode` (all but `A-Z a-z 0-9 _ - ! . ~ ' ( ) *` as `%XX`): the values are encoded twice.
/// Catima's reader decodes the fragment once, splits it at `&` and at the first `=`, and form-decodes each
/// value; older links (before 2.0) carry the same keys in the query (`?store=…`), read the same way and
/// overridden by fragment fields. Two older hosts are still accepted: `thelastproject.github.io/Catima/share`
/// and `brarcher.github.io/loyalty-card-locker/share`. `store`, `note` and `cardid` are required.
public enum CatimaShareLink {
    /// The hosts and paths Catima opens, newest first; links are written with the first.
    public static let hosts: [(host: String, path: String)] = [
        ("catima.app", "/share"),
        ("thelastproject.github.io", "/Catima/share"),
        ("brarcher.github.io", "/loyalty-card-locker/share"),
    ]

    /// The link for `card`: `store`, `note`, `cardid`, then `barcodeid`, `barcodetype` and `headercolor`
    /// when set, in the order Catima writes them.
    public static func link(for card: CatimaCard) -> String {
        var fields = [("store", card.store), ("note", card.note), ("cardid", card.cardID)]
        if let barcodeID = card.barcodeID { fields.append(("barcodeid", barcodeID)) }
        if card.barcodeType != .none { fields.append(("barcodetype", card.barcodeType.catimaName)) }
        if let color = card.headerColor { fields.append(("headercolor", String(color))) }
        let fragment = fields.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&")
        return "https://\(hosts[0].host)\(hosts[0].path)#" + uriEncoded(fragment)
    }

    /// The card a share link carries (`line` 0). Any of the three hosts, `https` or `http`, fragment
    /// (Catima 2.0 and later) or query (before).
    public static func card(from link: String) throws(CatimaError) -> CatimaCard {
        let trimmed = String(link.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        let schemeEnd: String.Index
        if trimmed.lowercased().hasPrefix("https://") {
            schemeEnd = trimmed.index(trimmed.startIndex, offsetBy: 8)
        } else if trimmed.lowercased().hasPrefix("http://") {
            schemeEnd = trimmed.index(trimmed.startIndex, offsetBy: 7)
        } else {
            throw .notAShareLink("it does not start with https://")
        }
        var rest = Substring(trimmed[schemeEnd...])
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = rest[..<slash].lowercased()
        let path = String(rest[slash...])
        guard hosts.contains(where: { $0.host == host && $0.path == path }) else {
            throw .notAShareLink(
                "Catima's links start https://catima.app/share (or the older "
                    + "thelastproject.github.io/Catima/share, brarcher.github.io/loyalty-card-locker/share)")
        }
        var values: [String: String] = [:]
        if let query {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                values[try formDecoded(parts[0])] = try formDecoded(parts.count > 1 ? parts[1] : "")
            }
        }
        if let fragment, !fragment.isEmpty {
            for pair in try percentDecoded(fragment, plusIsSpace: false).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                values[String(parts[0])] = try formDecoded(parts.count > 1 ? parts[1] : "")
            }
        }
        for required in ["store", "note", "cardid"] where values[required] == nil {
            throw .linkMissingField(required)
        }
        guard let store = values["store"], let note = values["note"], let cardID = values["cardid"] else {
            throw .linkMissingField("cardid")
        }
        let barcodeID = values["barcodeid"].flatMap { $0.isEmpty ? nil : $0 }
        return CatimaCard(
            store: store, note: note, cardID: cardID, barcodeID: barcodeID,
            barcodeType: .init(catimaName: values["barcodetype"] ?? ""),
            headerColor: values["headercolor"].flatMap { Int32($0) })
    }

    // MARK: Encoding

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    /// Java's `URLEncoder.encode(value, UTF-8)`.
    static func formEncoded(_ value: String) -> String {
        percentEncoded(value, keeping: { isAlphanumeric($0) || ".-*_".utf8.contains($0) }, spaceAsPlus: true)
    }

    /// Android's `Uri.encode(value)`.
    static func uriEncoded(_ value: String) -> String {
        percentEncoded(
            value, keeping: { isAlphanumeric($0) || "_-!.~'()*".utf8.contains($0) }, spaceAsPlus: false)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func percentEncoded(_ value: String, keeping: (UInt8) -> Bool, spaceAsPlus: Bool) -> String
    {
        var encoded = String.UnicodeScalarView()
        for byte in value.utf8 {
            if keeping(byte) {
                encoded.append(Unicode.Scalar(byte))
            } else if byte == 0x20, spaceAsPlus {
                encoded.append("+")
            } else {
                encoded.append("%")
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return String(encoded)
    }

    /// Java's `URLDecoder.decode(value, UTF-8)`: `+` is a space.
    static func formDecoded(_ value: Substring) throws(CatimaError) -> String {
        try percentDecoded(value, plusIsSpace: true)
    }

    private static func percentDecoded(_ value: Substring, plusIsSpace: Bool) throws(CatimaError) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(value.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x25 {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]),
                    let low = hexValue(utf8[index + 2])
                else { throw .badLinkEncoding }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte == 0x2B && plusIsSpace ? 0x20 : byte)
                index += 1
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .badLinkEncoding }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}

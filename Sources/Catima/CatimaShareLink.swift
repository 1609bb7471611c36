/// Catima's card share links (its `CARD_SHARING_URL_FORMAT.md`, and `ImportURIHelper` in its source).
///
/// Since Catima 2.0 a link is `https://catima.app/share#` and a fragment that keeps the card off the
/// server: the fields `key=value` joined with `&`, each value encoded with Java's `URLEncoder` (UTF-8,
/// space as `+`, all but `A-Z a-z 0-9 . - * _` as `%XX`), then the whole fragment encoded again with
/// Android's `Uri.encode` (all but `A-Z a-z 0-9 _ - ! . ~ ' ( ) *` as `%XX`): the values are encoded twice.
/// Catima's reader (`parse`) takes any of three hosts with its path, one trailing slash removed ("added by
/// some browsers"); the query's fields (links before 2.0, `?store=…`), then the fragment's, which override
/// them; it decodes the fragment once, splits it at `&` and each part at its first `=` (a part without one
/// makes the link invalid), and form-decodes each value. `store`, `note` and `cardid` are required; a
/// `headercolor` must be a whole number. ARCHITECTURE §13 lists the rules and where gymcard differs.
public enum CatimaShareLink {
    /// The hosts and paths Catima opens, newest first; links are written with the first.
    public static let hosts: [(host: String, path: String)] = [
        ("catima.app", "/share"),
        ("thelastproject.github.io", "/Catima/share"),
        ("brarcher.github.io", "/loyalty-card-locker/share"),
    ]

    /// The link for `card`, with the fields `toUri` writes, in its order: `store`, `note`, `balance` (0:
    /// gymcard keeps none), `cardid`, `barcodeid` when set, `barcodetype` when set, `barcodeencoding`
    /// always, `headercolor` when set.
    ///
    /// Catima reads a missing or empty `barcodeencoding` as ISO-8859-1 and draws what it cannot carry as
    /// `?`: a card that names no encoding is written empty (Catima's default, no ECI for ASCII), or `UTF-8`
    /// when its text goes beyond Latin-1 (as gymcard draws it).
    public static func link(for card: CatimaCard) -> String {
        var fields = [("store", card.store), ("note", card.note), ("balance", "0"), ("cardid", card.cardID)]
        if let barcodeID = card.barcodeID { fields.append(("barcodeid", barcodeID)) }
        if card.barcodeType != .none { fields.append(("barcodetype", card.barcodeType.catimaName)) }
        let beyondLatin1 = card.barcodeText.unicodeScalars.contains { $0.value > 0xFF }
        fields.append(("barcodeencoding", card.barcodeEncoding ?? (beyondLatin1 ? "UTF-8" : "")))
        if let color = card.headerColor { fields.append(("headercolor", String(color))) }
        let fragment = fields.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&")
        return "https://\(hosts[0].host)\(hosts[0].path)#" + uriEncoded(fragment)
    }

    /// The card a share link carries (`line` 0): any of the three hosts (any case, with a port or a user
    /// name, a trailing slash), `https` or `http`, fragment (Catima 2.0 and later) or query (before).
    public static func card(from link: String) throws(CatimaError) -> CatimaCard {
        let parts = try LinkParts(link)
        var values: [String: String] = [:]
        if let query = parts.query {
            // Android's getQueryParameter: the first field of a name wins; a field without `=` is empty.
            for pair in query.split(separator: "&") {
                let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = try formDecoded(pieces[0])
                if values[name] == nil { values[name] = try formDecoded(pieces.count > 1 ? pieces[1] : "") }
            }
        }
        if let fragment = parts.fragment {
            // Java's String.split("&") drops empty strings at the end only; a part without `=` throws
            // ArrayIndexOutOfBoundsException, which parse turns into "Not a valid import URI".
            var pieces = try percentDecoded(fragment, plusIsSpace: false).split(
                separator: "&", omittingEmptySubsequences: false)
            while pieces.count > 1, pieces.last?.isEmpty == true { pieces.removeLast() }
            for pair in pieces {
                let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard field.count == 2 else { throw .badLinkField(String(field[0].prefix(20))) }
                values[String(field[0])] = try formDecoded(field[1])
            }
        }
        for required in ["store", "note", "cardid"] where values[required] == nil {
            throw .linkMissingField(required)
        }
        guard let store = values["store"], let note = values["note"], let cardID = values["cardid"] else {
            throw .linkMissingField("cardid")
        }
        var color: Int32?
        if let given = values["headercolor"] {
            guard let parsed = Int32(given) else { throw .badLinkField("headercolor") }
            color = parsed
        }
        let barcodeID = values["barcodeid"].flatMap { $0.isEmpty ? nil : $0 }
        let encoding = values["barcodeencoding"].flatMap { $0.isEmpty ? nil : $0 }
        return CatimaCard(
            store: store, note: note, cardID: cardID, barcodeID: barcodeID,
            barcodeType: .init(catimaName: values["barcodetype"] ?? ""), barcodeEncoding: encoding,
            headerColor: color)
    }

    /// A link cut where Android's `Uri` cuts it: scheme, authority, path, query, fragment.
    struct LinkParts {
        var query: Substring?
        var fragment: Substring?

        init(_ link: String) throws(CatimaError) {
            let trimmed = link.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
            var rest = Substring(String(trimmed))
            let lowered = rest.prefix(8).lowercased()
            if lowered.hasPrefix("https://") {
                rest = rest.dropFirst(8)
            } else if lowered.hasPrefix("http://") {
                rest = rest.dropFirst(7)
            } else {
                throw .notAShareLink("it does not start with https://")
            }
            if let hash = rest.firstIndex(of: "#") {
                fragment = rest[rest.index(after: hash)...]
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: question)...]
                rest = rest[..<question]
            }
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            // getHost(): the authority without a user name (`…@`) or a port (`:443`).
            var host = rest[..<slash]
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
            // getPath() is decoded; parse removes one trailing slash.
            var path = (try? percentDecoded(rest[slash...], plusIsSpace: false)) ?? ""
            if path.hasSuffix("/") { path.removeLast() }
            let name = host.lowercased()
            guard hosts.contains(where: { $0.host == name && $0.path == path }) else {
                throw .notAShareLink(
                    "Catima's links start https://catima.app/share (or the older "
                        + "thelastproject.github.io/Catima/share, brarcher.github.io/loyalty-card-locker/share)"
                )
            }
        }
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

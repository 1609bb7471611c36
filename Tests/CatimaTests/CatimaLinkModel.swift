/// Catima's reader of share links, re-implemented from its source for these tests, apart from gymcard's
/// reader: `ImportURIHelper.parse` (CatimaLoyalty/Android, app/src/main/java/protect/card_locker/
/// ImportURIHelper.java, the version with `barcodeencoding`) over Android's `android.net.Uri`
/// (`StringUri`: `getHost`, `getPath`, `getQueryParameterNames`, `getQueryParameter`, `getFragment`, with
/// libcore's `UriCodec.decode`) and Java's `URLDecoder`, `String.split`, `Integer.parseInt`, `Long.parseLong`
/// and `BigDecimal`:
///
/// - the URI is cut at the first `#` (fragment) and the first `?` before it (query); the authority is what
///   follows `//` up to `/`, `?` or `#`; `getHost` drops a user name (to the last `@`) and a port (digits
///   after the last `:`) and decodes; `getPath` decodes; `isImportUri` removes one trailing `/` from the path
///   (`replaceAll("/$", "")`) and compares host and path with `equals` (case-sensitive) to the three pairs.
/// - query: every name of `getQueryParameterNames`, valued by `getQueryParameter`, the first field of that
///   name (a field without `=` is `""`), decoded with `+` as space; `UriCodec.decode` never throws here: a
///   bad escape or malformed UTF-8 becomes U+FFFD.
/// - fragment (`getFragment`, decoded the same way without `+`), when there is a `#` even with nothing after
///   it: `split("&")` (trailing empty strings dropped; `""` stays one empty string), each part
///   `split("=", 2)`, whose `[1]` throws ArrayIndexOutOfBoundsException without a `=`; the value through
///   `URLDecoder.decode` (`+` is space; a bad escape throws IllegalArgumentException, which `parse` does not
///   catch; malformed UTF-8 becomes U+FFFD); fragment fields override query fields.
/// - `store`, `note`, `cardid` must be there; `barcodetype` non-empty goes through `CatimaBarcode.fromName`
///   (ZXing's `BarcodeFormat.valueOf`; an unknown name throws, uncaught), `barcodeencoding` non-empty through
///   `Charset.forName` (an unknown name throws, uncaught; default ISO-8859-1), `balance` through
///   `BigDecimal`, `balancetype` through `Currency.getInstance` (uncaught), `validfrom`/`expiry` through
///   `Long.parseLong`, `headercolor` when present through `Integer.parseInt`; NumberFormatException and
///   ArrayIndexOutOfBoundsException make it "Not a valid import URI".
enum CatimaLinkModel {
    /// The card `parse` returns (the fields gymcard cares about).
    struct Card: Equatable, CustomStringConvertible {
        var store: String
        var note: String
        var cardID: String
        var barcodeID: String?
        var barcodeType: String?
        /// `Charset.name()`: the canonical name.
        var barcodeEncoding: String
        var headerColor: Int32?
        var description: String { "\(store)/\(cardID)/\(barcodeType ?? "-")/\(barcodeEncoding)" }
    }

    enum Outcome: Equatable {
        /// Parsed; `damaged` when a decoder put U+FFFD for what it could not decode.
        case card(Card, damaged: Bool)
        /// InvalidObjectException ("Not an import URI", "Not a valid import URI").
        case invalid(String)
        /// An exception `parse` does not catch.
        case crash(String)
    }

    static let hosts = [
        ("catima.app", "/share"), ("thelastproject.github.io", "/Catima/share"),
        ("brarcher.github.io", "/loyalty-card-locker/share"),
    ]

    static let zxingFormats: Set<String> = CatimaImporterModel.zxingFormats

    /// Java's canonical names (`Charset.name()`) by the names and aliases `Charset.forName` takes (any case),
    /// for the charsets a card may plausibly name.
    static let charsets: [String: String] = {
        var names: [String: String] = [:]
        for alias in ["utf-8", "utf8", "unicode-1-1-utf-8"] { names[alias] = "UTF-8" }
        for alias in [
            "iso-8859-1", "iso8859_1", "iso_8859_1", "iso_8859-1", "iso8859-1", "iso-ir-100",
            "iso_8859-1:1987",
            "latin1", "l1", "ibm819", "ibm-819", "cp819", "819", "csisolatin1", "8859_1", "iso88591",
        ] { names[alias] = "ISO-8859-1" }
        for alias in ["us-ascii", "ascii", "iso646-us", "646", "default"] { names[alias] = "US-ASCII" }
        for alias in ["utf-16", "utf_16", "utf16"] { names[alias] = "UTF-16" }
        for alias in ["windows-1252", "cp1252"] { names[alias] = "windows-1252" }
        return names
    }()

    static func parse(_ link: String) -> Outcome {
        var damaged = false
        func uriDecode(_ text: Substring, plus: Bool) -> String {
            let (decoded, replaced) = decodeLeniently(text, plus: plus)
            damaged = damaged || replaced
            return decoded
        }
        // Uri.parse: scheme up to the first ':', the rest hierarchical when it starts with "//".
        guard let colon = link.firstIndex(of: ":") else { return .invalid("Not an import URI") }
        var rest = link[link.index(after: colon)...]
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
        guard rest.hasPrefix("//") else { return .invalid("Not an import URI") }
        rest = rest.dropFirst(2)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let portColon = authority.lastIndex(of: ":"),
            authority[authority.index(after: portColon)...].allSatisfy(\.isNumber)
        {
            authority = authority[..<portColon]
        }
        let host = uriDecode(authority, plus: false)
        var path = uriDecode(rest[slash...], plus: false)
        if path.hasSuffix("/") { path.removeLast() }
        guard hosts.contains(where: { $0.0 == host && $0.1 == path }) else {
            return .invalid("Not an import URI")
        }

        var values: [String: String] = [:]
        if let query, !query.isEmpty {
            let fields = query.split(separator: "&", omittingEmptySubsequences: false)
            for field in fields {
                let name = String(field.prefix { $0 != "=" })
                let key = uriDecode(Substring(name), plus: false)
                guard values[key] == nil else { continue }
                // getQueryParameter(key): the first field whose encoded name is the key.
                if let first = fields.first(where: { String($0.prefix { $0 != "=" }) == key }) {
                    let value = first.contains("=") ? first.drop { $0 != "=" }.dropFirst() : ""
                    values[key] = uriDecode(value, plus: true)
                }
            }
        }
        if let fragment {
            let decoded = uriDecode(fragment, plus: false)
            for part in javaSplit(decoded, "&") {
                let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pieces.count == 2 else { return .invalid("Not a valid import URI") }
                guard let value = urlDecode(pieces[1], damaged: &damaged) else {
                    return .crash("URLDecoder: illegal hex characters in escape (%) pattern")
                }
                values[String(pieces[0])] = value
            }
        }
        guard let store = values["store"], let note = values["note"], let cardID = values["cardid"] else {
            return .invalid("Not a valid import URI")
        }
        var barcodeType: String?
        if let type = values["barcodetype"], !type.isEmpty {
            guard zxingFormats.contains(type) else { return .crash("No enum constant BarcodeFormat.\(type)") }
            barcodeType = type
        }
        var encoding = "ISO-8859-1"
        if let name = values["barcodeencoding"], !name.isEmpty {
            guard let canonical = charsets[name.lowercased()] else {
                return .crash("UnsupportedCharsetException")
            }
            encoding = canonical
        }
        if let balance = values["balance"], !balance.isEmpty, !isBigDecimal(balance) {
            return .invalid("Not a valid import URI")
        }
        if let currency = values["balancetype"], !currency.isEmpty,
            !(currency.count == 3 && currency.allSatisfy { $0.isASCII && $0.isUppercase })
        {
            return .crash("Currency.getInstance")
        }
        for date in ["validfrom", "expiry"] {
            if let value = values[date], !value.isEmpty, Int64(javaInteger(value)) == nil {
                return .invalid("Not a valid import URI")
            }
        }
        var headerColor: Int32?
        if let color = values["headercolor"] {
            guard let parsed = Int32(javaInteger(color)) else { return .invalid("Not a valid import URI") }
            headerColor = parsed
        }
        let card = Card(
            store: store, note: note, cardID: cardID, barcodeID: values["barcodeid"],
            barcodeType: barcodeType,
            barcodeEncoding: encoding, headerColor: headerColor)
        return .card(card, damaged: damaged)
    }

    /// `Integer.parseInt`/`Long.parseLong` take a leading `+` or `-` and ASCII digits only.
    static func javaInteger(_ text: String) -> String {
        let body = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "x" }
        return text.first == "+" ? String(body) : text
    }

    /// `new BigDecimal(text)`: sign, digits with at most one point, an optional exponent.
    static func isBigDecimal(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard mantissa.count <= 2, mantissa.contains(where: { !$0.isEmpty }),
            mantissa.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return false }
        return parts.count == 1 || Int32(javaInteger(String(parts[1]))) != nil
    }

    /// Java's `String.split(regex)` for a one-character literal: trailing empty strings removed, but a
    /// string without the separator is itself.
    static func javaSplit(_ text: String, _ separator: Character) -> [Substring] {
        var parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count > 1 else { return parts }
        while parts.last?.isEmpty == true { parts.removeLast() }
        return parts
    }

    /// libcore's `UriCodec.decode(s, convertPlus, UTF_8, throwOnFailure: false)`: a `%` cut short by the
    /// end becomes U+FFFD and ends the text, one followed by a character that is not a hex digit becomes
    /// U+FFFD; malformed UTF-8 becomes U+FFFD too.
    static func decodeLeniently(_ text: Substring, plus: Bool) -> (String, replaced: Bool) {
        var result = ""
        var bytes: [UInt8] = []
        var replaced = false
        func flush() {
            if String(validating: bytes, as: UTF8.self) == nil { replaced = true }
            result += String(decoding: bytes, as: UTF8.self)
            bytes = []
        }
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            index += 1
            guard byte == UInt8(ascii: "%") else {
                bytes.append(plus && byte == UInt8(ascii: "+") ? 0x20 : byte)
                continue
            }
            var value: UInt8 = 0
            var valid = true
            for _ in 0..<2 {
                guard index < utf8.count else {
                    flush()
                    return (result + "\u{FFFD}", true)
                }
                let digit = utf8[index]
                index += 1
                guard let nibble = hexDigit(digit) else {
                    valid = false
                    break
                }
                value = value << 4 | nibble
            }
            if valid {
                bytes.append(value)
            } else {
                flush()
                result += "\u{FFFD}"
                replaced = true
            }
        }
        flush()
        return (result, replaced)
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Java's `URLDecoder.decode(value, "UTF-8")`: `+` is a space; a `%` takes the next two characters
    /// through `Integer.parseInt(…, 16)` (a sign allowed, a negative value refused), else it throws
    /// IllegalArgumentException (`nil` here); the bytes of a run of escapes become text with U+FFFD for what
    /// is not UTF-8.
    static func urlDecode(_ text: Substring, damaged: inout Bool) -> String? {
        var result = ""
        var bytes: [UInt8] = []
        func flush() {
            if String(validating: bytes, as: UTF8.self) == nil { damaged = true }
            result += String(decoding: bytes, as: UTF8.self)
            bytes = []
        }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count else { return nil }
                var pair = ""
                pair.unicodeScalars.append(contentsOf: scalars[(index + 1)...(index + 2)])
                guard pair.unicodeScalars.allSatisfy({ $0.isASCII }), let value = Int(pair, radix: 16),
                    (0...255).contains(value)
                else { return nil }
                bytes.append(UInt8(value))
                index += 3
            } else {
                flush()
                result.unicodeScalars.append(scalar == "+" ? " " : scalar)
                index += 1
            }
        }
        flush()
        return result
    }

    /// The fields of a link gymcard wrote, as Catima reads them (`nil` when it does not).
    static func fields(of link: String) -> Card? {
        guard case .card(let card, damaged: false) = parse(link) else { return nil }
        return card
    }
}

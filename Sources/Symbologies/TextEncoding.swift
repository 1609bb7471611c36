/// How a 2D symbol's text becomes the bytes it carries: Catima's `barcodeencoding` (its `CARD_FIELDS.md`:
/// any Java charset name, of which ISO-8859-1 and UTF-8 are the two a person can choose).
///
/// QR Code, Data Matrix, Aztec and PDF417 carry bytes; without an Extended Channel Interpretation (ECI)
/// their standards read them as ISO-8859-1. UTF-8 text is drawn with ECI 26 so that a reader decodes it
/// as UTF-8 (ARCHITECTURE §13, "Text encoding").
public enum TextEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// ISO/IEC 8859-1 (Latin-1): one byte a character, U+0000 to U+00FF.
    case isoLatin1 = "ISO-8859-1"
    /// UTF-8, drawn with ECI 26.
    case utf8 = "UTF-8"

    /// The name Catima writes in its export and share link (`StandardCharsets.…name()`).
    public var catimaName: String { rawValue }

    /// The encoding a Catima file or link names, or `nil` for one gymcard does not draw.
    ///
    /// Catima reads the field with Java's `Charset.forName`, which takes the canonical name or an alias,
    /// in any case; these are the JDK's aliases of the two charsets (`sun.nio.cs.UTF_8`, `ISO_8859_1`).
    public init?(catimaName: String) {
        let name = catimaName.lowercased()
        if Self.utf8Names.contains(name) {
            self = .utf8
        } else if Self.latin1Names.contains(name) {
            self = .isoLatin1
        } else {
            return nil
        }
    }

    static let utf8Names: Set<String> = ["utf-8", "utf8", "unicode-1-1-utf-8"]
    static let latin1Names: Set<String> = [
        "iso-8859-1", "iso8859_1", "iso_8859_1", "iso_8859-1", "iso8859-1", "iso-ir-100", "iso_8859-1:1987",
        "latin1", "l1", "ibm819", "ibm-819", "cp819", "819", "csisolatin1", "8859_1", "iso88591",
    ]

    /// Whether `scalar` has a byte in this encoding (every scalar has one in UTF-8).
    public func canEncode(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .isoLatin1: return scalar.value <= 0xFF
        case .utf8: return true
        }
    }

    /// The bytes of `text` in this encoding; a Latin-1 text must hold only scalars up to U+00FF.
    func bytes(of text: String) -> [UInt8] {
        switch self {
        case .isoLatin1: return text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case .utf8: return Array(text.utf8)
        }
    }
}

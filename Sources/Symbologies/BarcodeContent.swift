import Codabar

/// A text validated for a symbology, in the exact form a reader decodes it back: what a card stores and
/// what gymcard draws.
///
/// Normalization, per symbology:
/// - Codabar follows ``CodabarSymbol/init(normalizing:)`` (nine digits are a Virginia Tech ID, `A…B`).
/// - Code 39 is upper-cased (it has no lower-case letters; zint upper-cases the same way). A check
///   character, when the card has one, is part of the text and drawn as given: gymcard adds none.
/// - EAN-8, EAN-13, UPC-A and UPC-E take their digits with or without the check digit: without, gymcard
///   adds it (GS1 General Specifications §7.9, modulo 10 with weights 3 and 1 from the right); with, it
///   must be right, or the ID is refused, since a wrong digit means a mistyped number. The text kept has
///   the check digit, as it is printed under the bars and as readers report it (zint does the same
///   with 12 or 13 digits for EAN-13).
/// - UPC-E with 6 digits gets number system 0; its check digit is that of the UPC-A it abbreviates.
/// - Interleaved 2 of 5 needs an even number of digits: zint would pad an odd one with a leading 0, which
///   is another number, so gymcard refuses it.
/// - Everything else is drawn as given; only leading and trailing white space is removed.
///
/// QR Code, PDF417, Data Matrix and Aztec carry bytes: ``encoding`` says which (ARCHITECTURE §13, "Text
/// encoding"). The linear symbologies carry ASCII only, and no encoding.
///
/// Deliberately not `CustomStringConvertible`: the text is a person's card ID.
public struct BarcodeContent: Sendable, Hashable {
    /// The symbology.
    public let symbology: Symbology
    /// The exact text, check digit included where the symbology has one.
    public let text: String
    /// The text encoding of a 2D symbol, as Catima keeps it (`barcodeencoding`): `nil` is Catima's "none",
    /// drawn as ISO-8859-1, which every text holding only U+0000…U+00FF fits; `.utf8` is drawn with ECI 26
    /// (``eciDesignator``).
    /// Always `nil` for the linear symbologies.
    public let encoding: TextEncoding?

    /// Longest text gymcard draws, per symbology: zint 2.11's own limits for Code 39 (85), Code 93 (107),
    /// Interleaved 2 of 5 (90) and Code 128 (60 symbol characters: 60 printable characters always fit),
    /// and 500 characters for the 2D symbols (any of them holds 500 ASCII characters; a card needs far
    /// fewer).
    public static func maximumLength(of symbology: Symbology) -> Int {
        switch symbology {
        case .codabar: return CodabarSymbol.maximumLength
        case .code39: return 85
        case .code93: return 107
        case .code128: return 60
        case .itf: return 90
        case .ean8: return 8
        case .ean13: return 13
        case .upca: return 12
        case .upce: return 8
        case .qr, .pdf417, .datamatrix, .aztec: return 500
        }
    }

    /// Normalizes what a person typed or a scanner read for `symbology`, then validates it strictly; a 2D
    /// text gets the encoding it needs (none for Latin-1 text, UTF-8 beyond).
    public init(symbology: Symbology, normalizing input: String) throws(SymbologyError) {
        try self.init(symbology: symbology, normalizing: input, encoding: nil)
    }

    /// Normalizes and validates as ``init(symbology:normalizing:)``, keeping the text encoding a card names
    /// (Catima's `barcodeencoding`) for a 2D symbology; the linear ones ignore it (their texts are ASCII).
    ///
    /// `nil` (Catima's "none") becomes `.utf8` for a text beyond U+00FF, which Latin-1 cannot carry. A text
    /// that names `.isoLatin1` and holds such a character is refused, naming the character and its position.
    public init(symbology: Symbology, normalizing input: String, encoding: TextEncoding?)
        throws(SymbologyError)
    {
        let typed = IDText.trimmed(input)
        guard !typed.isEmpty else { throw .empty(symbology) }
        var kind = symbology
        switch symbology {
        case .codabar:
            do { text = try CodabarSymbol(normalizing: input).text } catch { throw .codabar(error) }
        case .code39:
            let upper = typed.map(IDText.asciiUppercased)
            try Self.check(upper, symbology) { Self.code39Characters.contains($0) }
            text = String(upper)
        case .code93, .code128:
            try Self.check(typed, symbology) {
                ($0.asciiValue ?? 0) >= 0x20 && ($0.asciiValue ?? 0x7F) < 0x7F
            }
            // Code 93 holds 107 symbol characters; a character outside its own 47 (lower case, most
            // punctuation) is a shift and a letter, two of them (zint: "Expanded input too long").
            let symbolCharacters = typed.reduce(0) { $0 + (Self.code39Characters.contains($1) ? 1 : 2) }
            if symbology == .code93, symbolCharacters > 107 {
                throw .tooLongExpanded(symbolCharacters: symbolCharacters, maximum: 107, symbology: symbology)
            }
            text = String(typed)
        case .itf:
            try Self.check(typed, symbology, isAccepted: Self.isDigit)
            guard typed.count % 2 == 0 else { throw .wrongLength(length: typed.count, symbology: symbology) }
            text = String(typed)
        case .ean8, .ean13, .upca:
            try Self.check(typed, symbology, checksLength: false, isAccepted: Self.isDigit)
            let digits = try Self.withCheckDigit(
                typed, symbology, dataLength: Self.maximumLength(of: symbology) - 1)
            // An EAN-13 that begins with 0 is the UPC-A of its other twelve digits: the same bars, which
            // libzbar and ZXing name UPC-A (GS1 General Specifications §3.A: UPC-A is an EAN-13 with a
            // leading zero). Kept as that UPC-A, the card reads back as what it is.
            if symbology == .ean13, digits.hasPrefix("0") {
                kind = .upca
                text = String(digits.dropFirst())
            } else {
                text = digits
            }
        case .upce:
            try Self.check(typed, symbology, checksLength: false, isAccepted: Self.isDigit)
            text = try Self.upcE(typed)
        case .qr, .pdf417, .datamatrix, .aztec:
            try Self.check(typed, symbology) { character in
                !character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            }
            text = String(typed)
        }
        self.symbology = kind
        self.encoding =
            symbology.isTwoDimensional
            ? try Self.textEncoding(of: typed, named: encoding, symbology: symbology) : nil
    }

    // MARK: Characters

    static let code39Characters = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%")

    private static func isDigit(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (48...57).contains(ascii)
    }

    /// Refuses the first character `isAccepted` rejects, then a text longer than the symbology's maximum.
    private static func check(
        _ characters: [Character], _ symbology: Symbology, checksLength: Bool = true,
        isAccepted: (Character) -> Bool
    ) throws(SymbologyError) {
        if let index = characters.firstIndex(where: { !isAccepted($0) }) {
            throw .invalidCharacter(characters[index], position: index + 1, symbology: symbology)
        }
        guard checksLength else { return }
        let maximum = maximumLength(of: symbology)
        guard characters.count <= maximum else {
            throw .tooLong(length: characters.count, maximum: maximum, symbology: symbology)
        }
    }

    // MARK: Check digits

    /// The GS1 modulo-10 check digit of `digits`: weights 3, 1, 3, … from the rightmost digit.
    static func gs1CheckDigit(_ digits: [Int]) -> Int {
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() { sum += digit * (offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    private static func digitValues(_ characters: some Collection<Character>) -> [Int] {
        characters.map { Int(($0.asciiValue ?? 48) - 48) }
    }

    /// `dataLength` digits get their check digit; `dataLength + 1` digits must end with the right one.
    private static func withCheckDigit(_ digits: [Character], _ symbology: Symbology, dataLength: Int)
        throws(SymbologyError) -> String
    {
        switch digits.count {
        case dataLength:
            return String(digits) + String(gs1CheckDigit(digitValues(digits)))
        case dataLength + 1:
            let expected = gs1CheckDigit(digitValues(digits.dropLast()))
            let given = digits[dataLength]
            guard digitValues([given]) == [expected] else {
                throw .wrongCheckDigit(
                    given, position: dataLength + 1, expected: Character(String(expected)),
                    symbology: symbology)
            }
            return String(digits)
        default:
            throw .wrongLength(length: digits.count, symbology: symbology)
        }
    }

    /// UPC-E: 6 digits (number system 0), 7 (number system 0 or 1 first) or 8 (the check digit last).
    private static func upcE(_ digits: [Character]) throws(SymbologyError) -> String {
        var digits = digits
        switch digits.count {
        case 6: digits.insert("0", at: 0)
        case 7, 8: break
        default: throw .wrongLength(length: digits.count, symbology: .upce)
        }
        guard digits[0] == "0" || digits[0] == "1" else { throw .upcENumberSystem(digits[0]) }
        // GS1's zero suppression writes each UPC-A one way only: six digits ending in 3 keep three digits of
        // the manufacturer's number, so the third is 3 or more (0 to 2 would end in it); ending in 4, four, so
        // the fourth is not 0; ending in 5 to 9, five, so the fifth is not 0. zint refuses the others (its
        // errors 271, 272 and 273), and no reader expands them back to the number meant.
        let six = digitValues(digits[1...6])
        if six[5] == 3, six[2] <= 2 { throw .notUPCE(digit: "third", needs: "3 to 9 when the sixth is 3") }
        if six[5] == 4, six[3] == 0 { throw .notUPCE(digit: "fourth", needs: "1 to 9 when the sixth is 4") }
        if six[5] >= 5, six[4] == 0 {
            throw .notUPCE(digit: "fifth", needs: "1 to 9 when the sixth is 5 to 9")
        }
        let expected = gs1CheckDigit(upcAExpansion(of: digitValues(digits.prefix(7))))
        if digits.count == 8 {
            guard digitValues([digits[7]]) == [expected] else {
                throw .wrongCheckDigit(
                    digits[7], position: 8, expected: Character(String(expected)), symbology: .upce)
            }
            return String(digits)
        }
        return String(digits) + String(expected)
    }

    /// The eleven digits of the UPC-A that a UPC-E (number system and six digits) abbreviates; the last of
    /// the six says where the zeros were taken out (GS1 General Specifications, UPC-E zero suppression).
    static func upcAExpansion(of digits: [Int]) -> [Int] {
        let system = digits[0]
        let d = Array(digits[1...6])
        switch d[5] {
        case 0, 1, 2: return [system, d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: return [system, d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: return [system, d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: return [system, d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
    }

    // MARK: Text encoding

    /// The encoding a 2D text is drawn with: the one named, or `.utf8` for a text Latin-1 cannot carry.
    private static func textEncoding(of characters: [Character], named: TextEncoding?, symbology: Symbology)
        throws(SymbologyError) -> TextEncoding?
    {
        let beyondLatin1 = characters.firstIndex {
            $0.unicodeScalars.contains { !TextEncoding.isoLatin1.canEncode($0) }
        }
        switch (named, beyondLatin1) {
        case (.isoLatin1, let index?):
            throw .notInEncoding(
                characters[index], position: index + 1, encoding: .isoLatin1, symbology: symbology)
        case (nil, _?): return .utf8
        default: return named
        }
    }

    /// The bytes the symbol carries: the text in its encoding (ISO-8859-1 without one; a linear symbology's
    /// ASCII text is the same bytes either way).
    public var bytes: [UInt8] { (encoding ?? .isoLatin1).bytes(of: text) }

    /// The Extended Channel Interpretation a 2D symbol is drawn with, or `nil` for none.
    ///
    /// - 26 (UTF-8) for a UTF-8 text.
    /// - 3 (ISO-8859-1) for any other text with a byte above 0x7F. The standards read bytes without an ECI
    ///   as ISO-8859-1, but readers guess instead: drawn without one, `ÄÖÜ data` read as `ﾄﾖﾜ data`
    ///   (Shift JIS) in zxing-cpp 3.1.1 in all four symbologies and in zbarimg 0.23.92, `Äb` as `懺` and
    ///   `Käseschnitte` as `K酲eschnitte` in zbarimg, and `Ã©` (the bytes C3 A9) as `é` in zxing-cpp;
    ///   with ECI 3 every one of them read exactly (ARCHITECTURE §13, "Text encoding").
    /// - None for ASCII, which every charset spells the same: an ECI there changes the symbol and some
    ///   shop scanners refuse it (Catima issue 2921).
    public var eciDesignator: Int? {
        guard symbology.isTwoDimensional else { return nil }
        if encoding == .utf8 { return 26 }
        return bytes.contains { $0 >= 0x80 } ? 3 : nil
    }
}

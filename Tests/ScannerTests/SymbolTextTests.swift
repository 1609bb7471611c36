import Testing

@testable import Scanner

/// The text of a 2D symbol's bytes: by the ECIs it names, or (without one) UTF-8 when valid, else Latin-1.
@Suite("2D symbol text: ECIs and the rule without one")
struct SymbolTextTests {
    static func protocolBytes(_ parts: [(eci: Int?, bytes: [UInt8])]) -> [UInt8] {
        parts.flatMap { part -> [UInt8] in
            let marker = part.eci.map { Array(("\\" + format6($0)).utf8) } ?? []
            return marker + part.bytes.flatMap { $0 == 0x5C ? [0x5C, 0x5C] : [$0] }
        }
    }

    static func format6(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Bytes from the character sets' own tables (ISO 8859-7, Shift JIS, Windows-1251, UTF-16BE, Big5,
    /// EUC-KR): the decoding is checked against them, not against iconv's encoding.
    @Test(
        "each ECI's bytes decode to their characters",
        arguments: [
            (26, [0xC3, 0x84, 0x62, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80], "Äb€😀"),
            (3, [0xC3, 0xA9], "Ã©"), (1, [0xFF, 0xFE], "ÿþ"), (9, [0xA4, 0x20, 0xD9], "€ Ω"),
            (4, [0xA3, 0xF3], "Łó"), (20, [0x83, 0x4A, 0x81, 0x5B, 0x83, 0x68], "カード"),
            (22, [0xCF, 0xF0, 0xE8], "При"), (23, [0x80], "€"), (25, [0x00, 0x41, 0x4E, 0x2D], "A中"),
            (28, [0xA4, 0xA4], "中"), (30, [0xC7, 0xD1], "한"), (27, [0x61, 0x5C], "a\\"),
        ] as [(Int, [UInt8], String)])
    func decodes(eci: Int, bytes: [UInt8], text: String) {
        #expect(SymbolText.decode(eciProtocol: Self.protocolBytes([(eci, bytes)])) == .success(text))
    }

    @Test("bytes without an ECI: UTF-8 when valid, else ISO-8859-1")
    func withoutECI() {
        #expect(SymbolText.withoutECI([0xC4, 0x62]) == "Äb")
        #expect(SymbolText.withoutECI([0xC3, 0xA9]) == "é")
        #expect(SymbolText.withoutECI(Array("plain".utf8)) == "plain")
        #expect(SymbolText.decode(eciProtocol: [0xC4, 0x5C, 0x5C]) == .success("Ä\\"))
    }

    @Test("segments in several character sets, and bytes before the first ECI")
    func segments() {
        let bytes = Self.protocolBytes([(nil, [0x41]), (9, [0xD9]), (26, Array("中".utf8))])
        #expect(SymbolText.decode(eciProtocol: bytes) == .success("AΩ中"))
    }

    @Test("bytes that are no text in their ECI's character set, or an unknown ECI, are refused")
    func refused() {
        let bad = Self.protocolBytes([(26, [0x61, 0x62, 0xFF, 0xFE, 0x63])])
        #expect(
            SymbolText.decode(eciProtocol: bad) == .failure(SymbolTextProblem(eci: 26, characterSet: "UTF-8"))
        )
        let sjis = Self.protocolBytes([(20, [0x81])])
        #expect(
            SymbolText.decode(eciProtocol: sjis)
                == .failure(SymbolTextProblem(eci: 20, characterSet: "SHIFT_JIS")))
        #expect(
            SymbolText.decode(eciProtocol: Self.protocolBytes([(899, [0x41])]))
                == .failure(SymbolTextProblem(eci: 899)))
    }
}

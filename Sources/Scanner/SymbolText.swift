import Glibc

/// Why a 2D symbol's bytes are no text: its ECI names a character set its bytes are not valid in, or one
/// gymcard cannot decode. Such a read is never taken for an ID (ARCHITECTURE §13, "Text in 2D symbols").
public struct SymbolTextProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Extended Channel Interpretation the symbol named (26 is UTF-8); `nil` for a QR code's Kanji mode,
    /// which is Shift JIS without one.
    public var eci: Int?
    /// The character set's name, when gymcard knows it.
    public var characterSet: String?

    /// What was wrong, to follow "a QR Code whose", without the bytes (they may be part of a person's ID).
    public var description: String {
        guard let eci else { return "Kanji-mode bytes are not Shift JIS text" }
        guard let characterSet else { return "text is in a character set gymcard does not know (ECI \(eci))" }
        return "bytes are not the \(characterSet) text it says they are (ECI \(eci))"
    }
}

/// The text of a 2D symbol's bytes (QR, Data Matrix, Aztec, PDF417), decoded by the character set its ECIs
/// name, or by the rule readers follow without one.
///
/// Without an ECI the bytes are UTF-8 when they are valid UTF-8, else ISO-8859-1: what zxing-cpp 3.x does,
/// and what phone apps write (UTF-8 without an ECI is common). gymcard draws a Latin-1 text whose bytes
/// would pass for UTF-8 with ECI 3, so that its own cards read back exactly.
enum SymbolText {
    /// Decodes bytes written in the ECI protocol (ISO/IEC 15424: `\NNNNNN` switches the character set from
    /// there on, `\\` is one backslash), as zxing-cpp's `bytesECI()` gives them after its symbology
    /// identifier.
    static func decode(eciProtocol bytes: [UInt8]) -> Result<String, SymbolTextProblem> {
        var text = ""
        var segment: [UInt8] = []
        var eci: Int?
        var index = 0
        func flush() -> SymbolTextProblem? {
            defer { segment.removeAll() }
            guard !segment.isEmpty else { return nil }
            guard let eci else {
                text += withoutECI(segment)
                return nil
            }
            switch decode(segment, eci: eci) {
            case .success(let decoded):
                text += decoded
                return nil
            case .failure(let problem): return problem
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                segment.append(byte)
                index += 2
            } else if byte == UInt8(ascii: "\\"), index + 6 < bytes.count,
                bytes[(index + 1)...(index + 6)].allSatisfy({ (0x30...0x39).contains($0) })
            {
                if let problem = flush() { return .failure(problem) }
                eci = bytes[(index + 1)...(index + 6)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                index += 7
            } else {
                segment.append(byte)
                index += 1
            }
        }
        if let problem = flush() { return .failure(problem) }
        return .success(text)
    }

    /// A 2D symbol's text from zxing-cpp: its bytes by their ECIs; without one, the reader's own text
    /// (`readerText`: its byte segments as ISO-8859-1, a QR code's Kanji segments as Shift JIS) unless that
    /// is just the bytes as ISO-8859-1, when the bytes are read as ``withoutECI(_:)`` reads them. A text with
    /// U+FFFD in it, where a segment could not be decoded, is no text.
    static func decode(bytes: [UInt8], hasECI: Bool, readerText: String) -> Result<String, SymbolTextProblem>
    {
        if hasECI { return decode(eciProtocol: bytes) }
        if Array(readerText.unicodeScalars) == bytes.map({ Unicode.Scalar($0) }) {
            return .success(withoutECI(bytes))
        }
        guard !readerText.unicodeScalars.contains("\u{FFFD}") else {
            return .failure(SymbolTextProblem(eci: nil, characterSet: "SHIFT_JIS"))
        }
        return .success(readerText)
    }

    /// Bytes no ECI speaks for: UTF-8 when valid, else ISO-8859-1.
    static func withoutECI(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self) ?? latin1(bytes)
    }

    /// ISO-8859-1: each byte is the Unicode scalar of the same value.
    static func latin1(_ bytes: [UInt8]) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// The character set of an ECI (AIM ITS/04-023, the register zxing-cpp and zint follow), by its iconv
    /// name; `nil` for one that names no character set gymcard decodes.
    static func characterSet(eci: Int) -> String? {
        switch eci {
        case 0, 2: return "CP437"
        case 1, 3: return "ISO-8859-1"
        case 4...13: return "ISO-8859-\(eci - 2)"
        case 15...18: return "ISO-8859-\(eci - 2)"
        case 20: return "SHIFT_JIS"
        case 21: return "CP1250"
        case 22: return "CP1251"
        case 23: return "CP1252"
        case 24: return "CP1256"
        case 25: return "UTF-16BE"
        case 26: return "UTF-8"
        case 27, 170: return "ASCII"
        case 28: return "BIG5"
        case 29: return "GB18030"
        case 30: return "EUC-KR"
        case 31: return "GBK"
        case 32: return "GB18030"
        case 33: return "UTF-16LE"
        case 34: return "UTF-32BE"
        case 35: return "UTF-32LE"
        default: return nil
        }
    }

    /// `bytes` in the character set of `eci`, through glibc's iconv (its gconv modules are part of libc6).
    static func decode(_ bytes: [UInt8], eci: Int) -> Result<String, SymbolTextProblem> {
        guard let name = characterSet(eci: eci) else { return .failure(SymbolTextProblem(eci: eci)) }
        let problem = SymbolTextProblem(eci: eci, characterSet: name)
        if name == "UTF-8" {
            return String(validating: bytes, as: UTF8.self).map { .success($0) } ?? .failure(problem)
        }
        if name == "ISO-8859-1" { return .success(latin1(bytes)) }
        let converter = iconv_open("UTF-8", name)
        guard let converter, converter != iconv_t(bitPattern: -1) else {
            return .failure(SymbolTextProblem(eci: eci))
        }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        // UTF-8 needs at most 4 bytes a character, and no character set here has one under a byte.
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 4)
        let written = input.withUnsafeMutableBufferPointer { source -> Int? in
            output.withUnsafeMutableBufferPointer { target -> Int? in
                var sourcePointer = source.baseAddress
                var sourceLeft = source.count
                var targetPointer = target.baseAddress
                var targetLeft = target.count
                let result = iconv(converter, &sourcePointer, &sourceLeft, &targetPointer, &targetLeft)
                guard result != -1, sourceLeft == 0 else { return nil }
                return target.count - targetLeft
            }
        }
        guard let written,
            let text = String(validating: output[..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        else { return .failure(problem) }
        return .success(text)
    }
}

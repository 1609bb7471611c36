/// Where a config file stops being JSON (RFC 8259), by line and column, for the message a person reads.
///
/// FoundationEssentials' `JSONDecoder` says only "The given data was not valid JSON", with no position,
/// and no package in reach reports one without all of Foundation; this walks the bytes once and
/// decides nothing else (types and keys are the decoders' job).
public enum JSONSyntax {
    /// The first place the text is not JSON.
    public struct Mistake: Equatable, Sendable, CustomStringConvertible {
        /// 1-based line.
        public var line: Int
        /// 1-based column, in characters.
        public var column: Int
        /// What was expected or found: "expected a value", "a comma before }".
        public var what: String

        /// A mistake at a place.
        public init(line: Int, column: Int, what: String) {
            self.line = line
            self.column = column
            self.what = what
        }

        /// `line 3, column 8: expected a value`.
        public var description: String { "line \(line), column \(column): \(what)" }
    }

    /// `nil` when `bytes` are one JSON value with only whitespace around it.
    public static func mistake(in bytes: [UInt8]) -> Mistake? {
        var reader = Reader(bytes: bytes)
        do throws(Failure) {
            reader.skipWhitespace()
            try reader.value(depth: 0)
            reader.skipWhitespace()
            if reader.index < bytes.count { throw reader.fail("more text after the end") }
            return nil
        } catch {
            return error.mistake(in: bytes)
        }
    }

    private struct Failure: Error {
        var offset: Int
        var what: String

        func mistake(in bytes: [UInt8]) -> Mistake {
            var line = 1
            var column = 1
            for byte in bytes[..<min(offset, bytes.count)] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1  // count characters, not UTF-8 continuation bytes
                }
            }
            return Mistake(line: line, column: column, what: what)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func fail(_ what: String) -> Failure { Failure(offset: index, what: what) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
            }
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < 512 else { throw fail("nested too deeply") }
            guard let byte = current else { throw fail("the file ends where a value should be") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw fail("expected a value, found \(Self.name(byte))")
            }
        }

        mutating func object(depth: Int) throws(Failure) {
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else {
                    if current == UInt8(ascii: "}") { throw fail("a comma before }") }
                    throw fail(
                        "expected a key in double quotes, found \(current.map(Self.name) ?? "the end")")
                }
                try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw fail("expected : after the key") }
                index += 1
                skipWhitespace()
                try value(depth: depth + 1)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return
                default:
                    throw fail("expected , or } after a value, found \(current.map(Self.name) ?? "the end")")
                }
            }
        }

        mutating func array(depth: Int) throws(Failure) {
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                if current == UInt8(ascii: "]") { throw fail("a comma before ]") }
                try value(depth: depth + 1)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return
                default:
                    throw fail("expected , or ] after a value, found \(current.map(Self.name) ?? "the end")")
                }
            }
        }

        mutating func string() throws(Failure) {
            let start = index
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { break }
                    switch escaped {
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            index += 1
                            guard let hex = current, Self.isHexDigit(hex) else {
                                throw fail("\\u needs four hexadecimal digits")
                            }
                        }
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    default: throw fail("an unknown escape \\\(Self.name(escaped))")
                    }
                    index += 1
                case 0x00..<0x20:
                    throw fail(
                        byte == 0x0A
                            ? "a line break inside a string (a missing \")"
                            : "a control character inside a string")
                default: index += 1
                }
            }
            index = start
            throw fail("a string that never ends")
        }

        mutating func number() throws(Failure) {
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, Self.isDigit(first) else { throw fail("expected a digit") }
            index += 1
            if first != UInt8(ascii: "0") { while let byte = current, Self.isDigit(byte) { index += 1 } }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let byte = current, Self.isDigit(byte) else { throw fail("expected a digit after .") }
                while let byte = current, Self.isDigit(byte) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let byte = current, Self.isDigit(byte) else {
                    throw fail("expected a digit in the exponent")
                }
                while let byte = current, Self.isDigit(byte) { index += 1 }
            }
            if let byte = current, Self.isDigit(byte) || Self.isLetter(byte) {
                throw fail("expected , or the end of the number, found \(Self.name(byte))")
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            for expected in word.utf8 {
                guard current == expected else { throw fail("expected a value (\(word)?)") }
                index += 1
            }
            if let byte = current, Self.isLetter(byte) || Self.isDigit(byte) {
                throw fail("expected a value, found a word")
            }
        }

        static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }

        /// How a found character is named in a message: `'x'`, or a word for what cannot be printed.
        static func name(_ byte: UInt8) -> String {
            switch byte {
            case UInt8(ascii: "'"): return "a single quote (JSON needs double quotes)"
            case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
            default: return "a byte 0x\(String(byte, radix: 16, uppercase: true))"
            }
        }
    }
}

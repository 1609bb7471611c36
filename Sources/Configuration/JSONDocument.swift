import JSONOutput

/// A JSON document that can be edited and written back with the user's keys, their order and their
/// values as they were (numbers and strings keep their exact text); only the layout becomes two-space
/// indentation. For the commands that change the config file (`campus add`, `campus use`).
///
/// Foundation's JSON (`JSONSerialization`, `JSONDecoder`) forgets the order of keys, which would shuffle
/// a file a person wrote by hand; this small parser keeps it.
public indirect enum JSONDocument: Equatable, Sendable {
    /// An object: members in their order.
    case object([(key: String, value: JSONDocument)])
    /// An array.
    case array([JSONDocument])
    /// A string, number, `true`, `false` or `null`, as written in the file (a string with its quotes).
    case literal(String)

    /// Parses `bytes`; `nil` when they are not JSON (the config reader reports where, with `JSONSyntax`).
    public static func parse(_ bytes: [UInt8]) -> JSONDocument? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == bytes.count ? value : nil
    }

    /// A string value, escaped as JSON needs.
    public static func string(_ text: String) -> JSONDocument { .literal(JSONText.quoted(text)) }

    /// A number value.
    public static func number(_ value: Int) -> JSONDocument { .literal(String(value)) }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONDocument? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Sets (or, with `nil`, removes) the member `key` of an object; a new member goes at the end.
    public mutating func set(_ key: String, to value: JSONDocument?) {
        guard case .object(var members) = self else { return }
        if let index = members.firstIndex(where: { $0.key == key }) {
            if let value { members[index].value = value } else { members.remove(at: index) }
        } else if let value {
            members.append((key, value))
        }
        self = .object(members)
    }

    /// The document as text: two-space indentation, a newline at the end.
    public var text: String { write(indent: "") + "\n" }

    private func write(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .literal(let text): return text
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.write(indent: inner) }.joined(separator: ",\n")
                + "\n\(indent)]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            return "{\n"
                + members.map {
                    inner + JSONDocument.string($0.key).write(indent: inner) + ": "
                        + $0.value.write(indent: inner)
                }.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// Equal kinds with equal texts, members in the same order.
    public static func == (left: JSONDocument, right: JSONDocument) -> Bool {
        switch (left, right) {
        case (.literal(let one), .literal(let two)): return one == two
        case (.array(let one), .array(let two)): return one == two
        case (.object(let one), .object(let two)):
            return one.count == two.count
                && zip(one, two).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> JSONDocument? {
            guard depth < 200 else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: JSONDocument)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipWhitespace()
                    guard let key = stringText(), let decoded = Self.unescaped(key) else { return nil }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    members.append((decoded, member))
                    skipWhitespace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { return nil }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONDocument] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipWhitespace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { return nil }
                    index += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return stringText().map(JSONDocument.literal)
            default:
                // A number or a literal word: its exact text up to a delimiter.
                let start = index
                while index < bytes.count, !" \t\r\n,]}".utf8.contains(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                let isNumber = word.first.map { $0 == "-" || $0.isNumber } ?? false
                guard ["true", "false", "null"].contains(word) || (isNumber && Double(word) != nil) else {
                    return nil
                }
                return .literal(word)
            }
        }

        /// A string with its quotes, exactly as written.
        mutating func stringText() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: bytes[start..<index], as: UTF8.self)
                default: index += 1
                }
            }
            return nil
        }

        /// A key's text without quotes and escapes (keys gymcard writes and looks up are plain).
        static func unescaped(_ quoted: String) -> String? {
            var result = ""
            var scalars = quoted.unicodeScalars.dropFirst().dropLast()[...]
            while let scalar = scalars.popFirst() {
                guard scalar == "\\" else {
                    result.unicodeScalars.append(scalar)
                    continue
                }
                guard let escaped = scalars.popFirst() else { return nil }
                switch escaped {
                case "n": result += "\n"
                case "t": result += "\t"
                case "r": result += "\r"
                case "b": result += "\u{8}"
                case "f": result += "\u{C}"
                case "u":
                    let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
                    scalars = scalars.dropFirst(4)
                    guard hex.count == 4, let value = UInt32(hex, radix: 16) else { return nil }
                    result.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                default: result.unicodeScalars.append(escaped)
                }
            }
            return result
        }
    }
}

import FoundationEssentials

/// How every `--json` prints: one line, keys sorted, slashes left as they are.
public enum JSONText {
    /// `value` as JSON text. The documents gymcard prints hold strings, numbers, booleans, dates as
    /// text and optionals, which always encode; `fallback` is printed only if one does not.
    public static func line(_ value: some Encodable, fallback: String = "{}") -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return fallback }
        return escapingTerminalControls(String(decoding: data, as: UTF8.self))
    }

    /// `text` as a JSON string, quotes included: `"` and `\` escaped, line breaks and tabs by name,
    /// other control characters (and the characters ``escapingTerminalControls(_:)`` escapes) as
    /// `\uXXXX`, everything else as it is.
    public static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || steersTerminal(scalar): escaped += unicodeEscape(scalar)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// JSON text with DEL, the C1 controls (U+0080–U+009F), the bidirectional overrides and isolates and
    /// the line and paragraph separators written as `\uXXXX`. JSON lets them stand raw (it requires
    /// escapes only below U+0020, which JSONEncoder writes), but raw they steer a terminal that shows the
    /// document; escaped, the document is the same value. Outside strings JSON text is ASCII, and inside
    /// one no escape ends in such a character, so each one found is a string's own character.
    public static func escapingTerminalControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: steersTerminal) else { return json }
        var escaped = ""
        for scalar in json.unicodeScalars {
            if steersTerminal(scalar) {
                escaped += unicodeEscape(scalar)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Characters at or above U+007F that a terminal obeys or that reorder or break a line.
    static func steersTerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `\u001b`: JSON's escape for a character of the Basic Multilingual Plane.
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

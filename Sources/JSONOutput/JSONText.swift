import FoundationEssentials

/// How every `--json` prints: one line, keys sorted, slashes left as they are.
public enum JSONText {
    /// `value` as JSON text. The documents gymcard prints hold strings, numbers, booleans, dates as
    /// text and optionals, which always encode; `fallback` is printed only if one does not.
    public static func line(_ value: some Encodable, fallback: String = "{}") -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return fallback }
        return String(decoding: data, as: UTF8.self)
    }

    /// `text` as a JSON string, quotes included: `"` and `\` escaped, line breaks and tabs by name,
    /// other control characters as `\u00XX`, everything else as it is.
    public static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20:
                escaped += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}

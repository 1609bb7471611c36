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
}

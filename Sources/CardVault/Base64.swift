import FoundationEssentials

/// The base64 age uses: standard alphabet, no `=` padding, canonical encodings only (RFC 4648 §3.5).
enum UnpaddedBase64 {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes, or `nil` for anything but the canonical unpadded encoding.
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ Self.isAlphabet($0) }) else { return nil }
        let padding = (4 - text.utf8.count % 4) % 4
        guard padding < 3,
            let data = Data(base64Encoded: String(text) + String(repeating: "=", count: padding))
        else {
            return nil
        }
        let bytes = [UInt8](data)
        // Canonical: the unused low bits of the last character must be zero, so re-encoding matches.
        return encode(bytes) == text ? bytes : nil
    }

    /// Whether `byte` is in the standard base64 alphabet (padding excluded).
    static func isAlphabet(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 43
            || byte == 47
    }
}

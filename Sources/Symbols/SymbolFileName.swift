import Codabar
import Symbologies

/// How a batch names each ID's file, so a person can find it: the normalized ID itself.
///
/// `A123456789B` becomes `A123456789B.png`. Three Codabar characters are awkward or impossible in file
/// names and are replaced by letters outside the Codabar alphabet, so names never collide:
/// `/` → `_` (impossible on every system), `:` → `=` (illegal on Windows and macOS Finder),
/// `$` → `S` (shell expansion).
///
/// Other symbologies carry any printable character, so there every character but letters, digits and
/// `- + =` (and `.` after the first character) is written `%` and its two hex digits, which keeps names
/// distinct: `GYM/42` becomes `GYM%2F42.png`.
public enum SymbolFileName {
    /// The file name for a symbol with the given extension (no dot).
    public static func name(for symbol: CodabarSymbol, extension fileExtension: String) -> String {
        let safe = symbol.text.map { character -> Character in
            switch character {
            case "/": return "_"
            case ":": return "="
            case "$": return "S"
            default: return character
            }
        }
        return String(safe) + "." + fileExtension
    }

    /// The file name for a card's text in any symbology with the given extension (no dot).
    public static func name(for content: BarcodeContent, extension fileExtension: String) -> String {
        if content.symbology == .codabar, let symbol = try? CodabarSymbol(normalizing: content.text) {
            return name(for: symbol, extension: fileExtension)
        }
        var name = ""
        for (offset, byte) in content.text.utf8.enumerated() {
            let isSafe =
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "=")
                || (byte == UInt8(ascii: ".") && offset > 0)
            if isSafe {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF")
                name += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return name + "." + fileExtension
    }
}

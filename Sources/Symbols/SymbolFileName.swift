import Codabar

/// How a batch names each ID's file, so a person can find it: the normalized ID itself.
///
/// `A123456789B` becomes `A123456789B.png`. Three Codabar characters are awkward or impossible in file
/// names and are replaced by letters outside the Codabar alphabet, so names never collide:
/// `/` → `_` (impossible on every system), `:` → `=` (illegal on Windows and macOS Finder),
/// `$` → `S` (shell expansion).
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
}

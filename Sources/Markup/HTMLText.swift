import FoundationEssentials
import TextSearch

/// Readable text out of the HTML that web answers carry: tags removed, entities decoded, paragraphs kept.
public enum HTMLText {
    /// Reduces an HTML fragment to plain text.
    ///
    /// Block elements (`p`, `div`, `br`, `li`, headings, `tr`) become line breaks, list items get a
    /// bullet, `script` and `style` content is dropped, runs of spaces collapse, and paragraphs are
    /// separated by one blank line.
    public static func plainText(fromHTML html: String) -> String {
        var output = ""
        var index = html.startIndex
        var skipUntilClosing: String?
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let inside = html[html.index(after: index)..<close]
                index = html.index(after: close)
                if inside.hasPrefix("!--") {
                    // A comment may contain ">": skip to its real end.
                    if !inside.hasSuffix("--"), let end = html.range(ignoringCaseOf: "-->", from: index) {
                        index = end.upperBound
                    }
                    continue
                }
                let name = tagName(inside)
                if let skipping = skipUntilClosing {
                    if name == "/" + skipping { skipUntilClosing = nil }
                    continue
                }
                switch name {
                case "script", "style": skipUntilClosing = name
                case "br": output += "\n"
                case "p", "/p", "div", "/div", "h1", "h2", "h3", "h4", "h5", "h6", "/h1", "/h2", "/h3", "/h4",
                    "/h5", "/h6", "ul", "/ul", "ol", "/ol", "table", "/table", "blockquote", "/blockquote":
                    output += "\n\n"
                case "tr", "/tr": output += "\n"
                case "li": output += "\n• "
                case "td", "th": output += " "
                default: break
                }
                continue
            }
            if skipUntilClosing != nil {
                index = html.index(after: index)
                continue
            }
            if character == "&" {
                let (decoded, next) = decodeEntity(in: html, at: index)
                output += decoded
                index = next
                continue
            }
            output.append(character)
            index = html.index(after: index)
        }
        return tidy(output)
    }

    /// Decodes character references (`&amp;`, `&#39;`, `&#x2019;`, `&nbsp;`) in text that has no tags.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&" {
                let (decoded, next) = decodeEntity(in: text, at: index)
                output += decoded
                index = next
            } else {
                output.append(text[index])
                index = text.index(after: index)
            }
        }
        return output
    }

    private static func tagName(_ inside: Substring) -> String {
        let trimmed = inside.drop { $0 == " " }
        let name = trimmed.prefix { !$0.isWhitespace && $0 != ">" }
        let lowered = name.lowercased()
        return lowered.hasSuffix("/") ? String(lowered.dropLast()) : lowered
    }

    /// The entity at `start` (an "&") decoded, and where the text continues; an unknown one stays as is.
    private static func decodeEntity(in text: String, at start: String.Index) -> (String, String.Index) {
        let after = text.index(after: start)
        guard let semicolon = text[after...].prefix(12).firstIndex(of: ";") else { return ("&", after) }
        let body = text[after..<semicolon]
        let next = text.index(after: semicolon)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            if let value, let scalar = Unicode.Scalar(value), value != 0 {
                return (String(Character(scalar)), next)
            }
            return ("&", after)
        }
        if let named = namedEntities[String(body)] { return (named, next) }
        return ("&", after)
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "hellip": "…", "bull": "•", "middot": "·",
        "copy": "©", "reg": "®", "trade": "™", "eacute": "é", "egrave": "è", "aacute": "á", "oacute": "ó",
        "uacute": "ú", "iacute": "í", "ntilde": "ñ", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß",
        "deg": "°", "frac12": "½", "times": "×", "laquo": "«", "raquo": "»", "shy": "",
    ]

    /// Collapses spaces within lines, trims lines, and keeps at most one blank line between paragraphs.
    private static func tidy(_ text: String) -> String {
        var lines: [String] = []
        var blank = false
        // "\r\n" (a page served with Windows line ends) is one Character in Swift: split on it too.
        for rawLine in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        {
            let words = rawLine.split(whereSeparator: {
                $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}"
            })
            let line = words.joined(separator: " ")
            if line.isEmpty {
                blank = !lines.isEmpty
                continue
            }
            if blank { lines.append("") }
            blank = false
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

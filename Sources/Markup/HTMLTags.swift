import FoundationEssentials
import TextSearch

/// Finds start tags and their attributes in HTML, tolerant of the ways pages write them.
public enum HTMLTags {
    /// One start tag: its name and attributes (names lower-cased, values entity-decoded).
    public struct Tag: Sendable, Equatable {
        /// The element name, lower case.
        public var name: String
        /// Attribute values by lower-cased name; a bare attribute has an empty value.
        public var attributes: [String: String]
        /// Where the tag ends in the page (just after `>`).
        public var end: String.Index
    }

    /// Every `<name ...>` start tag in `html`, in order. Values may be double-, single- or unquoted.
    public static func find(_ name: String, in html: String) -> [Tag] {
        var tags: [Tag] = []
        let opening = "<" + name.lowercased()
        var searchFrom = html.startIndex
        while let start = html.range(ignoringCaseOf: opening, from: searchFrom) {
            searchFrom = start.upperBound
            guard let next = html[start.upperBound...].first, next.isWhitespace || next == ">" || next == "/"
            else { continue }
            var index = start.upperBound
            var attributes: [String: String] = [:]
            let endOfTag = parseAttributes(html, from: &index, into: &attributes)
            tags.append(Tag(name: name.lowercased(), attributes: attributes, end: endOfTag))
            searchFrom = endOfTag
        }
        return tags
    }

    /// Reads `name="value"`, `name='value'`, `name=value` and bare `name` until `>`; returns the index after `>`.
    private static func parseAttributes(
        _ html: String, from index: inout String.Index, into attributes: inout [String: String]
    ) -> String.Index {
        func skipSpaces() {
            while index < html.endIndex, html[index].isWhitespace || html[index] == "/" {
                index = html.index(after: index)
            }
        }
        while true {
            skipSpaces()
            guard index < html.endIndex else { return html.endIndex }
            if html[index] == ">" { return html.index(after: index) }
            let nameStart = index
            while index < html.endIndex, !html[index].isWhitespace, html[index] != "=", html[index] != ">" {
                index = html.index(after: index)
            }
            let attributeName = html[nameStart..<index].lowercased()
            while index < html.endIndex, html[index] == " " { index = html.index(after: index) }
            guard index < html.endIndex, html[index] == "=" else {
                if !attributeName.isEmpty, attributes[attributeName] == nil { attributes[attributeName] = "" }
                continue
            }
            index = html.index(after: index)
            while index < html.endIndex, html[index].isWhitespace { index = html.index(after: index) }
            guard index < html.endIndex else { return html.endIndex }
            let value: Substring
            let quote = html[index]
            if quote == "\"" || quote == "'" {
                let valueStart = html.index(after: index)
                let valueEnd = html[valueStart...].firstIndex(of: quote) ?? html.endIndex
                value = html[valueStart..<valueEnd]
                index = valueEnd < html.endIndex ? html.index(after: valueEnd) : valueEnd
            } else {
                let valueStart = index
                while index < html.endIndex, !html[index].isWhitespace, html[index] != ">" {
                    index = html.index(after: index)
                }
                value = html[valueStart..<index]
            }
            if attributes[attributeName] == nil {
                attributes[attributeName] = HTMLText.decodeEntities(String(value))
            }
        }
    }
}

/// Case-insensitive search and trimming without Foundation: gymcard's light binary links only
/// FoundationEssentials, which has neither `range(of:options:)` nor `trimmingCharacters(in:)`.
extension StringProtocol {
    /// The first range of `needle` (ASCII letters compared without case) at or after `start`.
    public func range(ignoringCaseOf needle: String, from start: Index? = nil) -> Range<Index>? {
        let pattern = Array(needle.utf8).map(Self.fold)
        guard let first = pattern.first else { return nil }
        let bytes = utf8
        var index = start ?? startIndex
        while index < endIndex {
            if Self.fold(bytes[index]) == first {
                var probe = index
                var matched = 0
                while matched < pattern.count, probe < endIndex, Self.fold(bytes[probe]) == pattern[matched] {
                    matched += 1
                    probe = bytes.index(after: probe)
                }
                if matched == pattern.count { return index..<probe }
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// Without leading and trailing white space (spaces, tabs, line breaks, no-break spaces).
    public var trimmed: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(self[first...last])
    }

    private static func fold(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

/// Case-insensitive search and trimming without Foundation: gymcard's light binary links only
/// FoundationEssentials, which has neither `range(of:options:)` nor `trimmingCharacters(in:)`.
extension StringProtocol {
    /// The first range of `needle` (ASCII letters compared without case) at or after `start`.
    ///
    /// Searches the UTF-8 bytes in place when the string stores them contiguously (a native `String` or
    /// `Substring`, as pages read from the network are): the generic walk over `utf8` costs about ten
    /// times as much per byte, which a 100 KB occupancy page made visible.
    public func range(ignoringCaseOf needle: String, from start: Index? = nil) -> Range<Index>? {
        let pattern = Array(needle.utf8).map(foldedASCII)
        guard !pattern.isEmpty else { return nil }
        let from = start ?? startIndex
        let skip = utf8.distance(from: startIndex, to: from)
        let found: Int?? = utf8.withContiguousStorageIfAvailable { bytes in
            firstASCIIMatch(of: pattern, in: bytes, from: skip)
        }
        if let found {
            guard let offset = found else { return nil }
            let lower = utf8.index(startIndex, offsetBy: offset)
            return lower..<utf8.index(lower, offsetBy: pattern.count)
        }
        // Bridged or otherwise non-contiguous text: the generic walk.
        let bytes = utf8
        var index = from
        while index < endIndex {
            if foldedASCII(bytes[index]) == pattern[0] {
                var probe = index
                var matched = 0
                while matched < pattern.count, probe < endIndex, foldedASCII(bytes[probe]) == pattern[matched]
                {
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

}

/// An ASCII letter in lower case; every other byte as it is.
func foldedASCII(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}

/// The offset of the first match of `pattern` (already folded) in `bytes` at or after `start`.
func firstASCIIMatch(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    let count = bytes.count - pattern.count
    guard start <= count else { return nil }
    let first = pattern[0]
    var index = start
    while index <= count {
        if foldedASCII(bytes[index]) == first {
            var matched = 1
            while matched < pattern.count, foldedASCII(bytes[index + matched]) == pattern[matched] {
                matched += 1
            }
            if matched == pattern.count { return index }
        }
        index += 1
    }
    return nil
}

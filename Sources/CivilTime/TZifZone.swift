/// A named time zone read from a tzdata file (TZif, tzfile(5) and RFC 8536), so that a process can work in
/// a facility's zone without adopting it through `TZ`: FoundationEssentials has no named time zones, and
/// `setenv("TZ")` changes every clock in the process at once.
///
/// Version 2 and later files are read through their 64-bit block; times after the last stored transition
/// follow the file's footer, a POSIX `TZ` rule (Debian's "slim" tzdata stores no transition after 2007
/// for most zones and relies on it).
public struct TZifZone: Sendable {
    /// Transition times, seconds since 1970 UTC, ascending.
    let transitions: [Int64]
    /// For each transition, the UTC offset in force from it.
    let offsetsAfter: [Int]
    /// The offset before the first transition (the file's first local time type).
    let initialOffset: Int
    /// The rule after the last transition, when the file has one.
    let footer: POSIXTimeZoneRule?

    /// Reads a TZif file's bytes.
    ///
    /// - Throws: ``TZifProblem`` for a file that is not TZif, is cut short, or contradicts itself.
    public init(bytes: [UInt8]) throws(TZifProblem) {
        var reader = ByteReader(bytes: bytes)
        let first = try Header(&reader)
        guard first.version >= 2 else {
            let block = try Block(&reader, header: first, timeSize: 4)
            (transitions, offsetsAfter, initialOffset) = try block.resolved()
            footer = nil
            return
        }
        try reader.skip(first.blockLength(timeSize: 4))
        let second = try Header(&reader)
        let block = try Block(&reader, header: second, timeSize: 8)
        (transitions, offsetsAfter, initialOffset) = try block.resolved()
        // The footer: a newline, a POSIX TZ string (maybe empty), a newline.
        guard try reader.byte() == 0x0A else { throw .damaged("no footer") }
        var text: [UInt8] = []
        while true {
            let byte = try reader.byte()
            if byte == 0x0A { break }
            text.append(byte)
            guard text.count <= 256 else { throw .damaged("footer too long") }
        }
        if text.isEmpty {
            footer = nil
        } else {
            guard let rule = POSIXTimeZoneRule(String(decoding: text, as: UTF8.self)) else {
                throw .damaged("footer is not a POSIX TZ rule")
            }
            footer = rule
        }
    }

    /// Seconds east of UTC in force at `seconds` since 1970 UTC.
    public func offset(atUnixTime seconds: Int64) -> Int {
        guard let last = transitions.last else { return footer?.offset(atUnixTime: seconds) ?? initialOffset }
        if seconds >= last, let footer { return footer.offset(atUnixTime: seconds) }
        guard seconds >= transitions[0] else { return initialOffset }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return offsetsAfter[low]
    }
}

/// Why a TZif file was refused.
public enum TZifProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with `TZif`.
    case notTZif
    /// The file ends before its counts say it should.
    case truncated
    /// A count, an index or an offset out of range.
    case damaged(String)

    /// The problem in words.
    public var description: String {
        switch self {
        case .notTZif: "not a TZif time zone file"
        case .truncated: "the time zone file is cut short"
        case .damaged(let what): "the time zone file is damaged (\(what))"
        }
    }
}

/// Big-endian reading with bounds checks.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    mutating func byte() throws(TZifProblem) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func skip(_ count: Int) throws(TZifProblem) {
        guard count >= 0, bytes.count - position >= count else { throw .truncated }
        position += count
    }

    mutating func signed(size: Int) throws(TZifProblem) -> Int64 {
        guard bytes.count - position >= size else { throw .truncated }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[position + index]) }
        position += size
        // Sign-extend a 4-byte value.
        return size == 4
            ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) : Int64(bitPattern: value)
    }
}

/// A TZif header: the magic, the version and the six counts.
private struct Header {
    var version: Int
    var isUTCCount: Int
    var isStandardCount: Int
    var leapCount: Int
    var transitionCount: Int
    var typeCount: Int
    var characterCount: Int

    init(_ reader: inout ByteReader) throws(TZifProblem) {
        let magic = [try reader.byte(), try reader.byte(), try reader.byte(), try reader.byte()]
        guard magic == Array("TZif".utf8) else { throw .notTZif }
        let versionByte = try reader.byte()
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw .damaged("unknown version")
        }
        try reader.skip(15)
        var counts: [Int] = []
        for _ in 0..<6 {
            let count = try reader.signed(size: 4)
            guard count >= 0, count <= 100_000 else { throw .damaged("a count out of range") }
            counts.append(Int(count))
        }
        (isUTCCount, isStandardCount, leapCount, transitionCount, typeCount, characterCount) =
            (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
        guard typeCount >= 1 else { throw .damaged("no local time types") }
        guard isUTCCount == 0 || isUTCCount == typeCount, isStandardCount == 0 || isStandardCount == typeCount
        else { throw .damaged("indicator counts do not match the types") }
    }

    /// The data block's length in bytes for 4- or 8-byte times.
    func blockLength(timeSize: Int) -> Int {
        transitionCount * timeSize + transitionCount + typeCount * 6 + characterCount
            + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
    }
}

/// A data block: transitions, their types, and the types' offsets (abbreviations and leap seconds are
/// skipped: gymcard needs only offsets, and tzdata's default "right/" zones are not used).
private struct Block {
    var times: [Int64] = []
    var typeIndices: [Int] = []
    var offsets: [Int] = []

    init(_ reader: inout ByteReader, header: Header, timeSize: Int) throws(TZifProblem) {
        let start = reader.position
        for _ in 0..<header.transitionCount { times.append(try reader.signed(size: timeSize)) }
        for _ in 0..<header.transitionCount { typeIndices.append(Int(try reader.byte())) }
        for _ in 0..<header.typeCount {
            let offset = try reader.signed(size: 4)
            // RFC 8536: -89999…93599 seconds (under 25 and 26 hours).
            guard offset > -90_000, offset < 93_600 else { throw .damaged("an offset out of range") }
            offsets.append(Int(offset))
            let isDaylight = try reader.byte()
            let abbreviation = try reader.byte()
            guard isDaylight <= 1, Int(abbreviation) < max(header.characterCount, 1) else {
                throw .damaged("a local time type out of range")
            }
        }
        try reader.skip(header.blockLength(timeSize: timeSize) - (reader.position - start))
        guard typeIndices.allSatisfy({ $0 < header.typeCount }) else {
            throw .damaged("a transition to a type that does not exist")
        }
        for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
            throw .damaged("transitions out of order")
        }
    }

    func resolved() throws(TZifProblem) -> ([Int64], [Int], Int) {
        (times, typeIndices.map { offsets[$0] }, offsets[0])
    }
}

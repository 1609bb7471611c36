import FoundationEssentials

/// Which keys a config file may hold, to warn about the ones gymcard does not know (a typo such as
/// `ocupancy` would otherwise be ignored in silence). Types and values are the settings' own checks.
public indirect enum ConfigShape: Sendable {
    /// A value whose inside is not checked here.
    case value
    /// An object with these keys only.
    case object([String: ConfigShape])
    /// An object whose keys are the user's own (facility keys, dates), each value of one shape.
    case map(ConfigShape)
    /// A list whose items have one shape.
    case list(ConfigShape)

    /// A key gymcard does not know, with the known key it most likely meant.
    public struct UnknownKey: Equatable, Sendable, CustomStringConvertible {
        /// Where: `occupancy.facilities[0].capcity`.
        public var path: String
        /// The closest known key at that place, when one is close.
        public var suggestion: String?

        /// `unknown key ocupancy (did you mean occupancy?)`.
        public var description: String {
            "unknown key \(path)" + (suggestion.map { " (did you mean \($0)?)" } ?? "") + "; it is ignored"
        }
    }

    /// The keys of `json` (a config file's bytes) this shape does not know; empty when the bytes are not
    /// JSON (that is reported elsewhere).
    public func unknownKeys(in json: Data) -> [UnknownKey] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: json) else { return [] }
        return unknownKeys(in: value, at: "")
    }

    private func unknownKeys(in value: JSONValue, at path: String) -> [UnknownKey] {
        switch (self, value) {
        case (.object(let known), .object(let members)):
            return members.keys.sorted().flatMap { key -> [UnknownKey] in
                let here = path.isEmpty ? key : path + "." + key
                guard let shape = known[key] else {
                    return [UnknownKey(path: here, suggestion: Self.closest(to: key, among: known.keys))]
                }
                return members[key].map { shape.unknownKeys(in: $0, at: here) } ?? []
            }
        case (.map(let shape), .object(let members)):
            return members.keys.sorted().flatMap { key in
                members[key].map { shape.unknownKeys(in: $0, at: path + "." + key) } ?? []
            }
        case (.list(let shape), .array(let items)):
            return items.enumerated().flatMap { shape.unknownKeys(in: $1, at: path + "[\($0)]") }
        default:
            return []
        }
    }

    /// The known key a typo most likely meant: the same letters in another case, or at most two edits
    /// away (one for short keys).
    public static func closest(to key: String, among known: some Collection<String>) -> String? {
        let lowered = key.lowercased()
        if let same = known.first(where: { $0.lowercased() == lowered }) { return same }
        let scored = known.map { ($0, editDistance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        return best.1 <= (key.count <= 4 ? 1 : 2) ? best.0 : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}

/// Any JSON value, as far as the key check needs to see into it.
enum JSONValue: Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case scalar

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !container.isAtEnd { items.append(try container.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            self = .scalar
        }
    }

    /// What the top level is, for "the top level must be an object, not an array".
    static func kind(of json: Data) -> String? {
        switch try? JSONDecoder().decode(JSONValue.self, from: json) {
        case .object: return "an object"
        case .array: return "an array"
        case .scalar: return "a single value"
        case nil: return nil
        }
    }
}

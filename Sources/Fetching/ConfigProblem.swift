import FoundationEssentials

/// Something wrong in the config file or an endpoint variable, worded for a person.
public struct ConfigProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    /// Whether an environment variable is wrong rather than the config file.
    public var isInEnvironment: Bool

    /// Creates a problem with its message.
    public init(_ description: String, isInEnvironment: Bool = false) {
        self.description = description
        self.isInEnvironment = isInEnvironment
    }

    /// An absolute http(s) URL, or a problem naming the config key it came from.
    public static func url(_ text: String, key: String) throws(ConfigProblem) -> URL {
        guard let url = httpURL(text) else { throw ConfigProblem("\(key) is not an http(s) URL: \(text)") }
        return url
    }

    /// An absolute http(s) URL from an environment variable, or a problem naming the variable.
    public static func url(_ text: String, environmentVariable name: String) throws(ConfigProblem) -> URL {
        guard let url = httpURL(text) else {
            throw ConfigProblem("\(name) is not an http(s) URL: \(text)", isInEnvironment: true)
        }
        return url
    }

    private static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// Words for a JSON decoding error: which key, and what was wrong with it.
    public static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not valid JSON" }
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce(into: "") { text, key in
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
        }
        switch decoding {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return at.isEmpty ? "\(key.stringValue) is missing" : "\(at) lacks \(key.stringValue)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)) is invalid"
        @unknown default: return "not valid JSON"
        }
    }
}

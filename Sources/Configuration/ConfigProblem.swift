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

    /// The file as a whole: JSON (else where it stops being JSON, by line and column), with an object at
    /// the top (else what is there instead).
    public static func checkDocument(_ file: Data) throws(ConfigProblem) {
        if let mistake = JSONSyntax.mistake(in: Array(file)) {
            throw ConfigProblem("not valid JSON at \(mistake)")
        }
        if let kind = JSONValue.kind(of: file), kind != "an object" {
            throw ConfigProblem("the top level must be an object ({ … }), not \(kind)")
        }
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
            let at = path(context.codingPath)
            return at.isEmpty ? "the top level must be an object ({ … })" : "\(at) has the wrong type"
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return at.isEmpty ? "\(key.stringValue) is missing" : "\(at) lacks \(key.stringValue)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)) is invalid"
        @unknown default: return "not valid JSON"
        }
    }
}

/// Where a setting's value came from, so that advice about a wrong address points at the right place.
public enum SettingOrigin: Sendable, Equatable {
    /// gymcard's own default (Virginia Tech's).
    case builtIn
    /// The config file, under this key.
    case configFile(key: String)
    /// This environment variable.
    case environment(variable: String)

    /// What to do about a wrong address, for the end of a message: `key` is the config key that would
    /// set it, `configPath` the file's path.
    public func advice(key: String, configPath: String) -> String {
        switch self {
        case .builtIn: return "it is gymcard's built-in address; if it moved, set \(key) in \(configPath)"
        case .configFile(let key): return "it comes from \(key) in \(configPath); check it"
        case .environment(let variable): return "it comes from \(variable); check or unset it"
        }
    }
}

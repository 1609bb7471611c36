import Configuration
import FoundationEssentials
import Glibc
import Storage
import Synchronization

/// `$XDG_CONFIG_HOME/gymcard/config.json`: read once per process, handed to each library to pick its
/// section. Unknown keys are warned about once, naming the closest known key.
public final class ConfigFile: Sendable {
    /// The whole file's shape: the sections each feature reads.
    public static func shape(of sections: [[String: ConfigShape]]) -> ConfigShape {
        .object(sections.reduce(into: [:]) { all, some in all.merge(some) { first, _ in first } })
    }

    /// Set in the environment of `gymcard-network` when `gymcard` has already warned about the file,
    /// so that a command handed over does not say it twice.
    public static let warnedVariable = "GYMCARD_CONFIG_WARNED"

    /// The file's path.
    public let path: String
    /// Every key the file may hold, when the program says (its sections come from the features that read
    /// them); others get a warning naming the closest known key. `nil`: keys are not checked.
    public let shape: ConfigShape?
    package let environment: [String: String]
    private let warn: @Sendable (String) -> Void
    /// The file's bytes once read (`.some(nil)`: there is none).
    private let contents = Mutex<Data??>(nil)
    /// Whether this process has said the file's warnings.
    private let warnedFlag = Mutex(false)

    init(
        directories: XDGDirectories, environment: [String: String], shape: ConfigShape?,
        warn: @escaping @Sendable (String) -> Void
    ) {
        path = directories.configHome + "/gymcard/config.json"
        self.shape = shape
        self.environment = environment
        self.warn = warn
    }

    /// Whether the file's warnings were said (by this process, or by `gymcard` before the hand-over).
    public var warned: Bool { warnedFlag.withLock { $0 } }

    /// The file's bytes, or `nil` when there is none. Not JSON, or not an object at the top, is a
    /// problem with the line and column.
    public func read() throws(ConfigFileProblem) -> Data? {
        if let known = contents.withLock({ $0 }) { return known }
        let file: Data?
        do { file = try FileContents.read(path, limitBytes: 1 << 20).map { Data($0) } } catch {
            throw ConfigFileProblem(path: path, problem: ConfigProblem("cannot read it: \(error)"))
        }
        if let file {
            do { try ConfigProblem.checkDocument(file) } catch { throw problem(error) }
            let sayWarnings = warnedFlag.withLock { warned in
                defer { warned = true }
                return !warned && environment[Self.warnedVariable] == nil
            }
            if sayWarnings, let shape {
                for unknown in shape.unknownKeys(in: file) { warn("warning: \(path): \(unknown)") }
            }
        }
        contents.withLock { $0 = .some(file) }
        return file
    }

    /// One library's settings from the file's bytes; a problem names the file or the variable.
    public func resolve<Settings>(_ read: (Data?) throws(ConfigProblem) -> Settings) throws(ConfigFileProblem)
        -> Settings
    {
        let file = try self.read()
        do { return try read(file) } catch { throw problem(error) }
    }

    /// A config problem placed: in this file, or in an environment variable.
    public func problem(_ problem: ConfigProblem) -> ConfigFileProblem {
        ConfigFileProblem(path: problem.isInEnvironment ? nil : path, problem: problem)
    }
}

/// A problem with the config file (`path` set) or with an environment variable that overrides it.
public struct ConfigFileProblem: Error, CustomStringConvertible {
    /// The file, or `nil` when the problem is in the environment.
    public var path: String?
    /// What is wrong, and where in the file.
    public var problem: ConfigProblem

    /// The problem in words, without advice (the CLI adds it).
    public var description: String { path.map { "\($0): \(problem)" } ?? "\(problem)" }
}

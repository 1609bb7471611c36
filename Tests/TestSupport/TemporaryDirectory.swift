import Foundation

/// A fresh temporary directory per test, removed afterwards.
public final class TemporaryDirectory {
    /// The directory's absolute path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        path = NSTemporaryDirectory() + "gymcard-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The names in the directory, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

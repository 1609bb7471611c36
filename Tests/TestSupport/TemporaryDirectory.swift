import Foundation

/// A fresh temporary directory per test, removed afterwards.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "gymcard-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}


import Foundation
import TestSupport

/// Catima's own files in ../shared/realworld/catima (its docs and two of its importer's test exports):
/// read from there, never copied into the project; tests that need them are skipped when absent.
enum CatimaFixtures {
    static let directory = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/catima")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("catima_v2.csv").path)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }
}

import Foundation
import TestSupport
import Testing

/// Real Codabar photos and scans others published, in ../shared/realworld/codabar-photos (absent outside
/// this workspace; never copied into the project). Its manifest.tsv names each file and the text it must
/// read as, or nothing for the images of other symbologies in no-codabar/.
@Suite("gymcard scan on real photos and scans others took")
struct RealPhotoTests {
    static let folder = GymcardProcess.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/realworld/codabar-photos")

    /// One line of the manifest: a file and the text it must read as (nil: nothing may be read).
    struct Entry: Sendable {
        var path: String
        var expected: String?
    }

    static func manifest() throws -> [Entry] {
        let text = try String(contentsOf: folder.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Entry? in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { return nil }
            return Entry(path: String(fields[0]), expected: fields[1].isEmpty ? nil : String(fields[1]))
        }
    }

    /// The README says zbarimg and zxing-cpp (3.1.1 and Debian's 1.4.0), asked for Codabar, each read every
    /// Codabar image here as given, and no Codabar from no-codabar/: so gymcard must read every one right
    /// and never print a wrong ID. gymcard now reads the other symbologies too (issue 27): on a sheet of
    /// several the Codabar comes first, and a product's EAN reads as the number its file is named after.
    /// Each file is its own run without a budget, so the whole cascade runs however busy the machine.
    @Test(
        "every real Codabar image reads right; no Codabar is read from no-codabar/; no misread",
        .enabled(
            if: Prerequisite.runs(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.tsv").path)),
            "../shared/realworld/codabar-photos is not beside the package"))
    func everyRealPhoto() async throws {
        let entries = try Self.manifest()
        #expect(entries.count >= 19, "the manifest lists \(entries.count) files")
        #expect(entries.contains { $0.expected == nil } && entries.contains { $0.expected != nil })
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        for entry in entries {
            let path = Self.folder.appendingPathComponent(entry.path).path
            let result = try await gymcard.run(["scan", "--all", "--json", path], timeoutSeconds: 600)
            let reads: [(symbology: String, text: String)] = result.stdoutText.split(separator: "\n")
                .compactMap {
                    guard
                        let object = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any],
                        let symbology = object["symbology"] as? String,
                        let text = (object["id"] ?? object["text"]) as? String
                    else { return nil }
                    return (symbology, text)
                }
            let codabar = reads.filter { $0.symbology == "codabar" }.map(\.text)
            if let expected = entry.expected {
                #expect(result.status == 0, "\(entry.path): \(result.stderr)")
                #expect(codabar == [expected], "\(entry.path) must read \(expected), read \(reads)")
                #expect(reads.first?.text == expected, "\(entry.path): the Codabar first, read \(reads)")
            } else {
                #expect(codabar.isEmpty, "\(entry.path) holds no Codabar, read as \(codabar)")
                let named = entry.path.split(separator: "-").last?.split(separator: "_").first.map(
                    String.init)
                if entry.path.contains("product-ean-"), let named, result.status == 0 {
                    #expect(reads.map(\.text).contains(named), "\(entry.path): read \(reads)")
                }
            }
        }
    }
}

import Foundation
import TestSupport
import Testing

@Suite("gymcard scan on a loaded machine")
struct ScanUnderLoadTests {
    /// The cascade is bounded by work, not by time: a photo must give the same output whether the machine
    /// is idle or busy. Before, a 2 s wall-clock budget cut the cascade short on a loaded machine, and a
    /// photo that reads late ("HEIC and AVIF photos read like the JPEG they were made from", rotated.avif)
    /// said "no barcode found" in a busy test run.
    @Test("the same photos give the same output with two busy loops beside gymcard as on an idle machine")
    func sameUnderLoad() async throws {
        let home = try TemporaryDirectory()
        // Photos that read early (the samples) and late in the cascade or not at all (an AVIF decoded whole,
        // a soft photo, a card among clutter at an angle, a tiny scan, a small heavily compressed JPEG).
        var paths = [
            ScanCommandTests.samples + "/card-rotated.jpg", ScanCommandTests.samples + "/card-webcam.jpg",
        ]
        try await ScanCommandTests.encodeHEIF(
            ScanCommandTests.samples + "/card-rotated.jpg", to: home.path + "/rotated.avif", avif: true)
        paths.append(home.path + "/rotated.avif")
        var generator = CardPhotoGenerator(seed: 2026)
        for category in ["defocus", "tilt-clutter", "tiny-scan", "small-jpeg"] {
            let recipe = try #require(CardPhotoGenerator.fullRecipes.first { $0.category == category })
            for index in 0..<1 {
                let photo = generator.photo(recipe, name: "\(category)-\(index)")
                try Data(photo.bytes).write(to: URL(fileURLWithPath: home.path + "/" + photo.name))
                paths.append(home.path + "/" + photo.name)
            }
        }
        let gymcard = GymcardProcess(home: home.path)
        /// Everything gymcard said but the times, which are the only thing allowed to differ.
        func output() async throws -> [String] {
            let result = try await gymcard.run(["scan", "--json"] + paths, timeoutSeconds: 900)
            return [String(result.status)]
                + result.stdoutText.split(separator: "\n").map {
                    String($0).replacing(/"milliseconds":[0-9]+,?/, with: "")
                } + result.stderrLines
        }
        let idle = try await output()
        var loops: [ChildProcess] = []
        for _ in 0..<2 {
            loops.append(try await ChildProcess.start("/bin/sh", ["-c", "while :; do :; done"]))
        }
        let loaded: [String]
        do {
            loaded = try await output()
        } catch {
            for loop in loops { loop.send(SIGKILL) }
            throw error
        }
        for loop in loops {
            loop.send(SIGKILL)
            _ = try? await loop.wait(timeoutSeconds: 30)
        }
        #expect(loaded == idle)
        // Not a test that passes by reading nothing.
        #expect(idle.filter { $0.contains("\"id\"") }.count >= 4, "\(idle)")
    }
}

import Foundation
import TestSupport
import Testing

@Suite("zxing-cpp's assertions do not take gymcard down")
struct ZXingAssertionTests {
    /// Debian builds zxing-cpp 1.4.0 with assertions on, and one fires on some photos (a pen stroke across
    /// a turned label; Tests/Fixtures/zxing-assertion): it aborted `gymcard scan` with SIGABRT (exit 134)
    /// and the library's message on stderr. The shim reads in a child process now, and such a photo gets
    /// the diagnosis of a photo nothing read.
    @Test("a photo that aborts zxing-cpp gets one line and exit 1, not SIGABRT")
    func assertion() async throws {
        let photo = GymcardProcess.packageRoot.appendingPathComponent(
            "Tests/Fixtures/zxing-assertion/pen-stroke-turned.jpg"
        ).path
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let result = try await gymcard.run(["scan", photo])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("Assertion"))
        #expect(result.stdoutText.isEmpty)
        // The same with --json, which prints a line for every photo.
        let json = try await gymcard.run(["scan", "--json", photo])
        #expect(json.status == 1)
        #expect(json.stdoutText.contains("\"status\":1"), "\(json.stdoutText)")
    }
}

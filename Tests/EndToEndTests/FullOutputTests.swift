import Foundation
import TestSupport
import Testing

/// Standard output sent to a full disk: a script that writes `gymcard scan` to a file must not take an empty
/// file for success (it did: exit 0, nothing said, the output lost).
@Suite("Output to a full disk")
struct FullOutputTests {
    @Test(
        "what could not be written is said in one line, exit 74",
        arguments: [
            ["scan", "samples/card-rotated.jpg"], ["scan", "--json", "samples/card-rotated.jpg"],
            ["occupancy", "--demo"], ["--version"], ["help", "scan"],
        ])
    func full(arguments: [String]) async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let run = try await ChildProcess.run(
            "/bin/sh", ["-c", "exec \"$0\" \"$@\" >/dev/full", GymcardProcess.executable.path] + arguments,
            environment: gymcard.environment, currentDirectory: GymcardProcess.packageRoot.path)
        #expect(run.status == 74, "\(run.stderrText)")
        #expect(
            run.stderrText
                == "gymcard: cannot write standard output: the disk is full; free some space and try again\n")
        // The same command to a pipe says nothing and succeeds.
        let fine = try await ChildProcess.run(
            GymcardProcess.executable.path, arguments, environment: gymcard.environment,
            currentDirectory: GymcardProcess.packageRoot.path)
        #expect(fine.status == 0 && fine.stderrText.isEmpty && !fine.stdout.isEmpty, "\(fine.stderrText)")
    }
}

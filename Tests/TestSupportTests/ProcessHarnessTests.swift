import Foundation
import TestSupport
import Testing

/// The helpers that run processes for the other suites, run the way a full test run uses them: many
/// processes at once, started from several tasks, each with its own input, output, error and status.
@Suite("The test harness's processes")
struct ProcessHarnessTests {
    /// Echoes standard input reversed to standard output, names itself on standard error, and exits with
    /// the status it is given.
    static let reverser = """
        import sys
        data = sys.stdin.buffer.read()
        sys.stdout.buffer.write(data[::-1])
        sys.stderr.write("reverser %s read %d bytes\\n" % (sys.argv[1], len(data)))
        sys.exit(int(sys.argv[2]))
        """

    @Test(
        "200 processes from 8 tasks at once (Python and gymcard, with stdin, stdout and stderr), a lock barrier taken and released beside them: every one gets its own"
    )
    func manyAtOnce() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let folder = home.path
        let lanes = 8
        let runsPerLane = 25
        let probe = Task { await PoolProbe.worstLateness(until: { Task.isCancelled }) }
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var problems: [String] = []
                    var generator = SeededGenerator(seed: UInt64(lane + 1))
                    for round in 0..<runsPerLane {
                        let name = "\(lane)-\(round)"
                        if lane % 2 == 0 {
                            // More than a pipe holds (64 KiB) each way, so both sides must keep reading.
                            let input = Data(
                                (0..<Int.random(in: 70_000...140_000, using: &generator)).map { _ in
                                    UInt8.random(in: 0...255, using: &generator)
                                })
                            let exit = Int32(round % 7)
                            let (status, output, error) = try await Interop.runPython(
                                Self.reverser, [name, String(exit)], input: input)
                            if status != exit { problems.append("\(name): status \(status), not \(exit)") }
                            if output != Data(input.reversed()) { problems.append("\(name): wrong stdout") }
                            if error != "reverser \(name) read \(input.count) bytes\n" {
                                problems.append("\(name): stderr \(error.debugDescription)")
                            }
                        } else if round % 5 == 4 {
                            // The vault tests' barrier, taken and released while others spawn: releasing
                            // it, then dropping it, must close its descriptor once, never someone else's.
                            let lock = try HeldLock(folder + "/lock-\(name)")
                            lock.release()
                            // Not an image: one line on stderr, exit 65.
                            let result = try await gymcard.run(
                                ["scan", "-"], input: Data("not a photo \(name)".utf8))
                            withExtendedLifetime(lock) {}
                            if result.status != 65 || result.stderrLines.count != 1 || !result.stdout.isEmpty
                            {
                                problems.append("\(name): bad scan gave \(result.status) \(result.stderr)")
                            }
                        } else {
                            // A PNG on stdout, then the same PNG on stdin: the ID comes back.
                            let id = String(format: "%09d", 100_000_000 + lane * 1000 + round)
                            let shown = try await gymcard.run(["show", "--id", id, "--png", "-"])
                            let scanned = try await gymcard.run(["scan", "-"], input: shown.stdout)
                            if shown.status != 0 || !shown.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                                problems.append("\(name): show gave \(shown.status) \(shown.stderr)")
                            }
                            if scanned.status != 0 || scanned.stdoutText != "A\(id)B\n" {
                                problems.append(
                                    "\(name): scan gave \(scanned.status) \(scanned.stdoutText.debugDescription)"
                                )
                            }
                        }
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        probe.cancel()
        let lateness = await probe.value
        print("note: the concurrency pool answered at worst \(lateness) ms late while the processes ran")
        #expect(problems.isEmpty, "\(problems.count) runs went wrong: \(problems.prefix(10))")
    }

    @Test("a run past its time is killed and fails in time, though a process it started holds its outputs")
    func timeoutWithHeldOutputs() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        // The shell's own child keeps stdout and stderr open for 300 s after the shell is killed. The bound
        // is far from both ends: the wait gives up after 1 + 5 s, and a loaded pool can delay its timers.
        let process = try await ChildProcess.start("/bin/sh", ["-c", "sleep 300 & echo $!; sleep 600"])
        await #expect(throws: ChildProcess.TimedOut.self) { try await process.wait(timeoutSeconds: 1) }
        #expect(clock.now - started < .seconds(150))
        let grandchild = String(decoding: process.standardOutputSoFar, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if let pid = pid_t(grandchild) { kill(pid, SIGKILL) }
    }

}

/// How late the concurrency pool runs a task that asked to wake every 10 ms: what an in-process HTTP
/// server would wait for a thread. Reported, not asserted: it depends on the machine.
enum PoolProbe {
    static func worstLateness(until done: @Sendable () -> Bool) async -> Int {
        let clock = ContinuousClock()
        var worst = Duration.zero
        while !done() {
            let start = clock.now
            try? await Task.sleep(for: .milliseconds(10))
            worst = max(worst, clock.now - start - .milliseconds(10))
        }
        return Int(worst / .milliseconds(1))
    }
}

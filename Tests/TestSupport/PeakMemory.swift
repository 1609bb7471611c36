import Foundation

/// Runs a process and reports its peak resident memory (the kernel's `ru_maxrss` for that process).
///
/// Measured by GNU time (`/usr/bin/time -f %M`), not by spawning from the test: a child started by the
/// test itself (fork, or posix_spawn's vfork) is charged, at its exec, the peak of the memory it shared
/// with the test process, so the test's own hundreds of megabytes would be counted. time is small; the
/// process it forks starts from its few hundred kilobytes. Standard output goes to /dev/null.
public enum PeakMemory {
    /// The exit status and the peak resident set size in kilobytes.
    public struct Measurement: Sendable {
        /// The exit status.
        public var status: Int32
        /// `ru_maxrss`: the peak resident set size, in KiB.
        public var peakKilobytes: Int
    }

    /// Runs `executable` with `arguments` in `environment` and waits for it, blocking the calling thread
    /// (call it off the concurrency pool: ``OffThePool``).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String])
        throws -> Measurement
    {
        let report = try TemporaryDirectory()
        let status = try ChildProcess.runBlocking(
            ["/usr/bin/time", "-f", "%M", "-o", report.path + "/peak", executable] + arguments,
            environment: environment)
        let text = try String(contentsOfFile: report.path + "/peak", encoding: .utf8)
        // time writes "Command exited with non-zero status N" first when the command failed.
        let peak = text.split(separator: "\n").last.flatMap { Int($0) } ?? -1
        return Measurement(status: status, peakKilobytes: peak)
    }
}

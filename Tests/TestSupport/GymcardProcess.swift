import Foundation
import Synchronization

/// Runs the built `gymcard` binary as a person or a script would: its own environment, no terminal,
/// stdin closed, with a time limit so a hang fails the test instead of stalling the suite.
public struct GymcardProcess: Sendable {
    /// What one run produced.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output, as bytes.
        public var stdout: Data
        /// Standard error, as text.
        public var stderr: String
        /// Standard output, as text.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error's lines, without the empty one after the last newline.
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The `gymcard` binary built beside the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "gymcard")
    }

    /// The package's root directory (for man/, samples/).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The environment the binary runs with.
    public var environment: [String: String]

    /// A process environment with HOME and every XDG directory inside `home`, so no real file is touched.
    public init(home: String, extra: [String: String] = [:]) {
        var environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment.merge(extra) { $1 }
        self.environment = environment
    }

    /// A bash command line that runs `gymcard ARGUMENTS` in this environment's files, for a real terminal
    /// (tmux, xterm) whose shell does not inherit the test's environment: the XDG folders exported, UTF-8,
    /// and no `NO_COLOR` leaking in from the machine running the tests.
    public func shellCommand(_ arguments: String) -> String {
        let exports = ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]
            .map { "export \($0)=\(environment[$0] ?? "")" }.joined(separator: "; ")
        return "\(exports); export LANG=C.UTF-8; unset NO_COLOR; \(Self.executable.path) \(arguments)"
    }

    /// Runs `gymcard` with the arguments; fails after `timeoutSeconds`.
    ///
    /// `input` is written to standard input (otherwise it is closed); `asUser` runs the binary through
    /// `setpriv` as that user (for permission tests when the suite runs as root). The wait happens on a
    /// thread of its own (``OffThePool``), never on one of the concurrency pool's few threads, which the
    /// in-process test servers need to answer the binary in time.
    public func run(
        _ arguments: [String], input: Data? = nil, asUser: String? = nil, currentDirectory: String? = nil,
        timeoutSeconds: Double = 60
    ) async throws -> Result {
        try await OffThePool.run {
            try runBlocking(
                arguments, input: input, asUser: asUser, currentDirectory: currentDirectory,
                timeoutSeconds: timeoutSeconds)
        }
    }

    private func runBlocking(
        _ arguments: [String], input: Data?, asUser: String?, currentDirectory: String?,
        timeoutSeconds: Double
    ) throws -> Result {
        let process = Process()
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        if let asUser {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                [
                    "--reuid=\(asUser)", "--regid=\(asUser == "nobody" ? "nogroup" : asUser)",
                    "--clear-groups", Self.executable.path,
                ]
                + arguments
        } else {
            process.executableURL = Self.executable
            process.arguments = arguments
        }
        process.environment = environment
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        if let input {
            Self.detach {
                try? inputPipe.fileHandleForWriting.write(contentsOf: input)
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        // Drain both pipes concurrently so a large output cannot block the child.
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        Self.detach(group) { outData = output.fileHandleForReading.readDataToEndOfFile() }
        Self.detach(group) { errData = error.fileHandleForReading.readDataToEndOfFile() }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw TimedOut(arguments: arguments)
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus, stdout: outData,
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Starts `gymcard`, waits for its first line on stdout, sends `signal` (Ctrl-C is SIGINT), and
    /// returns what it printed and its exit status.
    public func runInterrupted(_ arguments: [String], signal: Int32 = SIGINT, timeoutSeconds: Double = 30)
        async throws
        -> Result
    {
        try await runSignalled(arguments, signal: signal, timeoutSeconds: timeoutSeconds) { output in
            output.contains(UInt8(ascii: "\n"))
        }.result
    }

    /// Starts `gymcard`, waits until `condition` holds for its standard output so far (checked every
    /// 5 ms; a command that prints nothing, such as `render`, can be watched through its files instead),
    /// sends `signal`, and returns what it printed and its exit status. `signalled` is false when the
    /// command ended before the condition held.
    public func runSignalled(
        _ arguments: [String], signal: Int32, timeoutSeconds: Double = 60,
        when condition: @escaping @Sendable (Data) -> Bool
    ) async throws -> (result: Result, signalled: Bool) {
        try await OffThePool.run {
            try runSignalledBlocking(
                arguments, signal: signal, timeoutSeconds: timeoutSeconds, when: condition)
        }
    }

    private func runSignalledBlocking(
        _ arguments: [String], signal: Int32, timeoutSeconds: Double,
        when condition: @Sendable (Data) -> Bool
    ) throws -> (result: Result, signalled: Bool) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outData = Mutex(Data())
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        Self.detach(group) {
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                outData.withLock { $0.append(chunk) }
            }
        }
        Self.detach(group) { errData = error.fileHandleForReading.readDataToEndOfFile() }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning, !condition(outData.withLock { $0 }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let signalled = process.isRunning
        if signalled { kill(process.processIdentifier, signal) }
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw TimedOut(arguments: arguments)
        }
        process.waitUntilExit()
        group.wait()
        let result = Result(
            status: process.terminationStatus, stdout: outData.withLock { $0 },
            stderr: String(decoding: errData, as: UTF8.self))
        return (result, signalled)
    }

    /// Runs blocking work on a thread of its own. Dispatch's global queue has only as many threads as
    /// cores on Linux: blocking them starves every other test (and a local server) for seconds.
    private static func detach(_ group: DispatchGroup? = nil, _ body: @escaping @Sendable () -> Void) {
        group?.enter()
        let thread = Thread {
            body()
            group?.leave()
        }
        thread.start()
    }

    /// The run did not finish in time.
    public struct TimedOut: Error {
        /// The arguments of the run that hung.
        public var arguments: [String]
    }
}

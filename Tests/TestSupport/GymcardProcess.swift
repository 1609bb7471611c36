import Foundation

/// Runs the built `gymcard` binary as a person or a script would: its own environment, no terminal,
/// stdin /dev/null unless given, with a time limit so a hang fails the test instead of stalling the suite.
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

        init(_ output: ChildProcess.Output) {
            status = output.status
            stdout = output.stdout
            stderr = output.stderrText
        }
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

    /// A process environment with HOME and every XDG directory inside `home`, so no real file is touched;
    /// the full-screen card's backlight is a folder inside it that does not exist (no backlight), so that a
    /// test run on a laptop leaves its screen alone (a test that means it names a stand-in in `extra`).
    public init(home: String, extra: [String: String] = [:]) {
        var environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["GYMCARD_TEST_BACKLIGHT"] = home + "/no-backlight"
        environment.merge(extra) { $1 }
        self.environment = environment
    }

    /// A bash command line that runs `gymcard ARGUMENTS` in this environment's files, for a real terminal
    /// (tmux, xterm) whose shell does not inherit the test's environment: the XDG folders and the backlight
    /// (and the system bus, when set) exported, UTF-8, and no `NO_COLOR` leaking in from the machine
    /// running the tests.
    public func shellCommand(_ arguments: String) -> String {
        let names = [
            "HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
            "GYMCARD_TEST_BACKLIGHT",
            "DBUS_SYSTEM_BUS_ADDRESS",
        ]
        let exports = names.filter { environment[$0] != nil }.map { "export \($0)=\(environment[$0] ?? "")" }
            .joined(separator: "; ")
        return "\(exports); export LANG=C.UTF-8; unset NO_COLOR; \(Self.executable.path) \(arguments)"
    }

    /// Runs `gymcard` with the arguments; fails after `timeoutSeconds`, a hang detector far above any
    /// normal run (a debug build's scan runs every stage of its cascade and scrypt 2^18, beside the other
    /// suites on two cores: a minute was seen to run out), so a machine's load cannot change the answer.
    ///
    /// `input` is written to standard input (otherwise it is /dev/null); `asUser` runs the binary through
    /// `setpriv` as that user (for permission tests when the suite runs as root). Nothing blocks a thread
    /// of the concurrency pool meanwhile (``ChildProcess``), which the in-process test servers need to
    /// answer the binary in time.
    public func run(
        _ arguments: [String], input: Data? = nil, asUser: String? = nil, currentDirectory: String? = nil,
        timeoutSeconds: Double = 600
    ) async throws -> Result {
        var executable = Self.executable.path
        var commandLine = arguments
        if let asUser {
            commandLine =
                [
                    "--reuid=\(asUser)", "--regid=\(asUser == "nobody" ? "nogroup" : asUser)",
                    "--clear-groups", executable,
                ] + arguments
            executable = "/usr/bin/setpriv"
        }
        do {
            let output = try await ChildProcess.run(
                executable, commandLine, environment: environment, currentDirectory: currentDirectory,
                input: input, timeoutSeconds: timeoutSeconds)
            return Result(output)
        } catch is ChildProcess.TimedOut {
            throw TimedOut(arguments: arguments)
        }
    }

    /// Starts `gymcard`, waits for its first line on stdout, sends `signal` (Ctrl-C is SIGINT), and
    /// returns what it printed and its exit status.
    public func runInterrupted(_ arguments: [String], signal: Int32 = SIGINT, timeoutSeconds: Double = 300)
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
        _ arguments: [String], signal: Int32, timeoutSeconds: Double = 300,
        when condition: @escaping @Sendable (Data) -> Bool
    ) async throws -> (result: Result, signalled: Bool) {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeoutSeconds)
        let process = try await ChildProcess.start(Self.executable.path, arguments, environment: environment)
        // Watched from a thread of its own: on the concurrency pool, busy with other suites' work on a
        // loaded machine, the watch was seen to wake only after a 20000-ID batch had ended.
        let signalled = try await OffThePool.run { () -> Bool in
            while !process.hasEnded, !condition(process.standardOutputSoFar), clock.now < deadline {
                usleep(5000)
            }
            guard !process.hasEnded else { return false }
            process.send(signal)
            return true
        }
        do {
            let left = max(.zero, deadline - clock.now)
            let output = try await process.wait(timeoutSeconds: Double(left / .milliseconds(1)) / 1000)
            return (Result(output), signalled)
        } catch is ChildProcess.TimedOut {
            throw TimedOut(arguments: arguments)
        }
    }

    /// The run did not finish in time.
    public struct TimedOut: Error {
        /// The arguments of the run that hung.
        public var arguments: [String]
    }
}

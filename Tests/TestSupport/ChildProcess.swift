import Foundation
import Subprocess
import Synchronization
import SystemPackage
import TestServer

/// A program a test runs, started through swift-subprocess.
///
/// Foundation's `Process` needs a blocked thread per wait and per pipe, and its `FileHandle` traps on a
/// failed read: one descriptor closed twice anywhere in the test process (HeldLock did so) took the whole
/// run down. swift-subprocess makes its pipes close-on-exec, closes every other descriptor in the child,
/// and reports a failed read as an error, which fails the one test that saw it.
///
/// Nothing here runs on the concurrency pool, which the in-process HTTP test servers need: swift-subprocess
/// spawns on a thread of its own and watches the child's pidfd and pipes through epoll on another, and the
/// steps between (each read, each write, the appends) run on ``ProcessInputOutput``'s thread, not the
/// pool's. Standard output and standard error are always read, concurrently, to their end (the child's, not
/// a grandchild's that inherited them), so a large output never blocks the child.
public final class ChildProcess: Sendable {
    /// What a run produced.
    public struct Output: Sendable {
        /// The exit status; for a process ended by a signal, the signal's number (as Foundation's
        /// `Process.terminationStatus` gave it).
        public var status: Int32
        /// Whether a signal ended the process (`status` is then the signal's number).
        public var signalled: Bool
        /// Standard output.
        public var stdout: Data
        /// Standard error.
        public var stderr: Data
        /// Standard output, as text.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error, as text.
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The run did not end in time; the process was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The program and its arguments.
        public var commandLine: [String]
        /// What went wrong, for a test's failure message.
        public var description: String { "timed out: \(commandLine.joined(separator: " "))" }
    }

    /// The process's ID, valid until ``wait(timeoutSeconds:)`` has returned.
    public let processIdentifier: pid_t
    private let commandLine: [String]
    private let control: Control
    private let captured: Captured
    private let outcome: Task<Output, any Error>

    private init(
        processIdentifier: pid_t, commandLine: [String], control: Control, captured: Captured,
        outcome: Task<Output, any Error>
    ) {
        self.processIdentifier = processIdentifier
        self.commandLine = commandLine
        self.control = control
        self.captured = captured
        self.outcome = outcome
    }

    /// Starts `executable` (a path) with `arguments`; returns once it runs.
    ///
    /// `environment` is the whole environment (nil: this process's); `input` is written to standard
    /// input, which is then closed (nil: standard input is /dev/null). Standard output and standard error
    /// are captured; ``standardOutputSoFar`` shows what has come so far.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, input: Data? = nil
    ) async throws -> ChildProcess {
        ignoreBrokenPipes
        let configuration = Configuration(
            executable: .path(FilePath(executable)), arguments: Arguments(arguments),
            environment: environment.map { variables in
                .custom(
                    Dictionary(
                        uniqueKeysWithValues: variables.map {
                            (Environment.Key(stringLiteral: $0.key), $0.value)
                        }
                    ))
            } ?? .inherit,
            workingDirectory: currentDirectory.map { FilePath($0) })
        let control = Control()
        let captured = Captured()
        let outcome = Task(executorPreference: ProcessInputOutput.executor) {
            try await run(configuration, input: input, control: control, captured: captured)
        }
        let processIdentifier = try await control.started()
        return ChildProcess(
            processIdentifier: processIdentifier, commandLine: [executable] + arguments, control: control,
            captured: captured, outcome: outcome)
    }

    /// Starts `executable` and waits for its end; kills it and throws ``TimedOut`` after
    /// `timeoutSeconds`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, input: Data? = nil, timeoutSeconds: Double = 600
    ) async throws -> Output {
        try await start(
            executable, arguments, environment: environment, currentDirectory: currentDirectory, input: input
        )
        .wait(timeoutSeconds: timeoutSeconds)
    }

    /// Waits for the end of the process and returns what it printed; after `timeoutSeconds` kills it
    /// (SIGKILL) and throws ``TimedOut``.
    public func wait(timeoutSeconds: Double = 600) async throws -> Output {
        if let ended = try await outcome(within: timeoutSeconds) { return ended }
        send(SIGKILL)
        // The outputs may end only when every process holding them has closed them: a grandchild that
        // inherited them (a daemon, a helper left running) can keep them open past the child's death
        // (seen in a full run: 21 s after a 1 s timeout, for a grandchild of 20 s). The test fails with
        // TimedOut at once either way; it never waits on such a grandchild.
        _ = try? await outcome(within: 5)
        throw TimedOut(commandLine: commandLine)
    }

    /// The run's outcome if it comes within `seconds`, else nil; never waits longer, whoever still holds
    /// the outputs (a task group would wait for its reading task, which no cancellation ends).
    private func outcome(within seconds: Double) async throws -> Output? {
        let outcome = outcome
        let result: Result<Output, any Error>? = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let timer = Task {
                // Cancelled: the outcome came first (and has resumed already).
                guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
                once.resume(returning: nil)
            }
            Task {
                let result = await outcome.result
                once.resume(returning: result)
                timer.cancel()
            }
        }
        return try result?.get()
    }

    /// A continuation resumed by whichever of two tasks comes first.
    private final class ResumeOnce<Value: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<Value, Never>?>
        init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = Mutex(continuation) }
        func resume(returning value: Value) { continuation.withLock { $0.take() }?.resume(returning: value) }
    }

    /// Sends `signal` to the process; nothing once it has ended.
    public func send(_ signal: Int32) { control.send(signal) }

    /// Whether the process has ended.
    public var hasEnded: Bool { control.hasEnded }

    /// What the process has written to standard output so far.
    public var standardOutputSoFar: Data { captured.stdout.withLock { $0 } }

    /// What the process has written to standard error so far.
    public var standardErrorSoFar: Data { captured.stderr.withLock { $0 } }

    /// Runs the configuration with captured outputs, publishing the process to `control` while it runs.
    private static func run(
        _ configuration: Configuration, input: Data?, control: Control, captured: Captured
    ) async throws -> Output {
        do {
            let result: (TerminationStatus, Data, Data)
            if let input {
                let execution = try await Subprocess.run(
                    configuration, input: .inputWriter, output: .sequence, error: .sequence
                ) { execution in
                    try await supervise(execution, control: control, captured: captured) {
                        // Ignored like a shell's pipe: a child may end without reading its input.
                        _ = try? await execution.standardInputWriter.write(input)
                        try? await execution.standardInputWriter.finish()
                    }
                }
                result = (execution.terminationStatus, execution.closureResult.0, execution.closureResult.1)
            } else {
                let execution = try await Subprocess.run(
                    configuration, input: .none, output: .sequence, error: .sequence
                ) { execution in
                    try await supervise(execution, control: control, captured: captured) {}
                }
                result = (execution.terminationStatus, execution.closureResult.0, execution.closureResult.1)
            }
            switch result.0 {
            case .exited(let code):
                return Output(status: code, signalled: false, stdout: result.1, stderr: result.2)
            case .signaled(let signal):
                return Output(status: signal, signalled: true, stdout: result.1, stderr: result.2)
            }
        } catch {
            control.failedToStart(error)
            throw error
        }
    }

    /// While the process runs: publishes it, writes its input, reads both outputs to their end, and waits
    /// for its exit (swift-subprocess reaps it only after this returns, so its ID stays its own until then).
    private static func supervise<Input: InputProtocol>(
        _ execution: Execution<Input, SequenceOutput, SequenceOutput>, control: Control, captured: Captured,
        writeInput: () async -> Void
    ) async throws -> (Data, Data) {
        control.running(execution.processIdentifier)
        defer { control.ended() }
        async let stdout: Void = collect(execution.standardOutput, into: captured.stdout)
        async let stderr: Void = collect(execution.standardError, into: captured.stderr)
        await writeInput()
        try await stdout
        try await stderr
        // The outputs end when the child exits (or, rarely, closes both first): wait for the exit itself.
        var pause = 1
        while !control.hasEnded {
            try? await Task.sleep(for: .milliseconds(pause))
            pause = min(pause * 2, 50)
        }
        return (captured.stdout.withLock { $0 }, captured.stderr.withLock { $0 })
    }

    /// Reads one output to its end. A failed read throws: the test then fails with the reason instead of
    /// seeing an output cut short.
    private static func collect(_ sequence: SubprocessOutputSequence, into data: borrowing Mutex<Data>)
        async throws
    {
        for try await buffer in sequence {
            buffer.withUnsafeBytes { bytes in data.withLock { $0.append(contentsOf: bytes) } }
        }
    }

    /// The child's outputs so far.
    private final class Captured: Sendable {
        let stdout = Mutex(Data())
        let stderr = Mutex(Data())
    }

    /// The running process, as far as signals and `hasEnded` may use it: its pid and pidfd are valid
    /// only while ``supervise`` runs, so both are used under the lock and forgotten when it returns.
    private final class Control: Sendable {
        private enum State {
            case starting([CheckedContinuation<pid_t, any Swift.Error>])
            case running(ProcessIdentifier)
            /// Ended, with the pid it had (nil if it never ran): only to name it, never to signal it.
            case ended(pid_t?)
            case failed(any Swift.Error)
        }
        private let state = Mutex(State.starting([]))

        /// Waits until the process runs (or failed to start).
        func started() async throws -> pid_t {
            try await withCheckedThrowingContinuation { continuation in
                let result: Result<pid_t, any Swift.Error>? = state.withLock { state in
                    switch state {
                    case .starting(let waiting):
                        state = .starting(waiting + [continuation])
                        return nil
                    case .running(let process): return .success(process.value)
                    // A short process can run and end before its starter asks (a loaded machine delayed the
                    // starter's task, and it failed with CancellationError).
                    case .ended(let pid?): return .success(pid)
                    case .ended(nil): return .failure(CancellationError())
                    case .failed(let error): return .failure(error)
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        }

        func running(_ process: ProcessIdentifier) {
            let waiting = state.withLock { state -> [CheckedContinuation<pid_t, any Swift.Error>] in
                guard case .starting(let waiting) = state else { return [] }
                state = .running(process)
                return waiting
            }
            for continuation in waiting { continuation.resume(returning: process.value) }
        }

        func failedToStart(_ error: any Swift.Error) {
            let waiting = state.withLock { state -> [CheckedContinuation<pid_t, any Swift.Error>] in
                guard case .starting(let waiting) = state else { return [] }
                state = .failed(error)
                return waiting
            }
            for continuation in waiting { continuation.resume(throwing: error) }
        }

        func ended() {
            state.withLock { state in
                if case .running(let process) = state {
                    state = .ended(process.value)
                } else {
                    state = .ended(nil)
                }
            }
        }

        func send(_ signal: Int32) {
            state.withLock { state in
                // The process is not reaped while it is `running` here, so its pid is still its own.
                if case .running(let process) = state { kill(process.value, signal) }
            }
        }

        var hasEnded: Bool {
            state.withLock { state in
                switch state {
                case .starting: return false
                case .running(let process):
                    // Exited (a zombie until swift-subprocess reaps it)? WNOWAIT leaves it to be reaped.
                    var information = siginfo_t()
                    let status = waitid(P_PID, id_t(process.value), &information, WEXITED | WNOHANG | WNOWAIT)
                    return status != 0 || information.si_signo != 0
                case .ended, .failed: return true
                }
            }
        }
    }

    /// A child that ends before reading all its input must not end the test process with SIGPIPE; a
    /// write then fails with EPIPE instead. Children start with every signal at its default again.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
}

extension ChildProcess {
    /// Runs a program to its end on the calling thread and returns its exit status (for a signal, the
    /// signal's number); standard input and standard error are /dev/null, standard output goes to
    /// `standardOutput`.
    ///
    /// For the few callers that cannot await, such as a `defer` or a synchronous helper: swift-subprocess
    /// is async only, and a thread blocked on its task could be one the task needs (two pool threads
    /// blocked so at once would never wake). posix_spawn and waitpid need no other thread, and no pipe is
    /// made. It blocks the calling thread, so run quick commands only, or run it off the pool
    /// (``OffThePool``).
    public static func runBlocking(
        _ arguments: [String], environment: [String: String]? = nil, standardOutput: String = "/dev/null"
    ) throws -> Int32 {
        guard let executable = arguments.first else { throw POSIXError(.EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of the test process's: a descriptor another test opened without O_CLOEXEC (a
        // script being written) would otherwise stay open in the child (ETXTBSY for that test).
        if let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias AddCloseFrom =
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
                -> Int32
            _ = unsafeBitCast(closeFrom, to: AddCloseFrom.self)(&actions, 3)
        }
        // Every signal at its default and none blocked, whatever the test process set (it ignores SIGPIPE).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for variable in envp ?? [] { free(variable) } }
        var child: pid_t = 0
        let spawned =
            if let envp {
                posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&child, executable, &actions, &attributes, argv, environ)
            }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
        }
        // As <sys/wait.h>'s WIFEXITED, WEXITSTATUS and WTERMSIG read it.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }
}

/// The thread that runs the harness's process input and output.
///
/// swift-subprocess's reads and writes are async: epoll says a pipe is ready, and the read, the write and
/// what follows run on whichever executor the task prefers, by default the concurrency pool. On Linux the
/// pool has as many threads as cores (two on the CI machine), and the in-process HTTP servers need them;
/// this executor's own thread does that work instead, as the old harness's reader threads did.
enum ProcessInputOutput {
    static let executor = ThreadExecutor(name: "gymcard-test-process-io")
}

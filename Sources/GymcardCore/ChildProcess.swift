import Glibc
import Spawning

/// Runs another program (`systemctl --user`) without Foundation's Process, which is not in
/// FoundationEssentials: `posix_spawnp` with standard output and error collected, standard input empty.
public enum ChildProcess {
    /// What a run gave: its exit status and what it printed (both streams).
    public struct Outcome: Sendable {
        /// The exit status (128 + the signal when one ended it).
        public var status: Int32
        /// Standard output and error together.
        public var output: String
    }

    /// ``run(_:)`` as a ``Notifier/Run`` (notifications, `systemctl` for the timer).
    public static func statusAndOutput(_ arguments: [String]) -> (status: Int32, output: String)? {
        run(arguments).map { ($0.status, $0.output) }
    }

    /// Runs `arguments[0]` found on `PATH`; `nil` when it is not installed. A program that is there
    /// but cannot be started (not executable, busy being rewritten) gives status 126 and the reason, as
    /// a shell would, so that callers warn rather than take it for missing.
    public static func run(_ arguments: [String]) -> Outcome? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        // Only 1 and 2 may lead to the pipe: a daemon the program leaves behind (tmux's server) keeps
        // what it inherited, and an extra write end kept the read below from ever ending.
        if pipeEnds[1] > 2 { posix_spawn_file_actions_addclose(&actions, pipeEnds[1]) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        // No signal blocked and every one at its default (SpawnAttributes): tmux's server, started from a
        // Dispatch worker, once ignored kill-server's SIGTERM.
        let spawned = SpawnAttributes.clean { attributes in
            posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else {
            guard spawned != ENOENT else { return nil }
            return Outcome(status: 126, output: "cannot start it: " + String(cString: strerror(spawned)))
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let exited = status & 0x7F == 0
        return Outcome(
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            output: String(decoding: output, as: UTF8.self))
    }
}

extension ChildProcess {
    /// Whether tmux's `allow-passthrough` is on for this pane (`on` or `all`), which the full-screen card's
    /// images need inside tmux. `run` runs tmux (``statusAndOutput(_:)``; tests point it at a server of
    /// their own).
    public static func tmuxPassesImages(
        run: ([String]) -> (status: Int32, output: String)? = statusAndOutput
    ) -> Bool {
        guard let outcome = run(["tmux", "show-options", "-Apv", "allow-passthrough"]), outcome.status == 0
        else {
            return false
        }
        let value = outcome.output.split(separator: "\n").last.map(String.init) ?? ""
        return value == "on" || value == "all"
    }
}

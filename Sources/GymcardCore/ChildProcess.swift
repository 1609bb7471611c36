import Glibc

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
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, arguments[0], &actions, nil, argv, environ)
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

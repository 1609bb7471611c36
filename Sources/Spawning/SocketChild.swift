import Glibc

/// A program started with one end of a new Unix socket as its standard input (and, if asked, its standard
/// output), the other end kept by gymcard: the backlight guardian and zxing-cpp's helper.
///
/// A socket, not pipes: gymcard's writes to a child that died fail with EPIPE (`send` with MSG_NOSIGNAL)
/// instead of raising SIGPIPE, and the child learns of gymcard's end however it comes (its end closes,
/// `kill -9` included). Both ends are close-on-exec (`dup2` clears it on the child's standard input), so no
/// other program gymcard starts holds one open; the child keeps no other descriptor of gymcard's (a lock,
/// a test's pipe, a terminal). What it would write elsewhere goes to /dev/null. Signals as
/// ``SpawnAttributes/clean(flags:_:)`` sets them.
public enum SocketChild {
    /// Starts `executable` with `arguments` (`argv[0]` first) in `environment` (`nil`: gymcard's own);
    /// returns its process ID and gymcard's end of the socket, or nil when it cannot be started.
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String]? = nil,
        socketIsOutput: Bool = false, flags: Int32 = 0
    ) -> (process: pid_t, socket: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
        else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO)
        if socketIsOutput {
            posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        SpawnAttributes.closeFrom(3, in: &actions)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { variables in variables.map { strdup($0.key + "=" + $0.value) } + [nil] }
        defer { for pointer in argv + (envp ?? []) { free(pointer) } }
        var child: pid_t = 0
        let spawned = SpawnAttributes.clean(flags: flags) { attributes in
            if var envp {
                return posix_spawn(&child, executable, &actions, &attributes, argv, &envp)
            }
            return posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        }
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            return nil
        }
        return (child, ends[0])
    }
}

import Glibc

/// How gymcard starts a program with `posix_spawn`: with no signal blocked and every signal at its default.
///
/// A Dispatch worker, where async commands and the turnstile's hooks run, blocks nearly every signal, and a
/// child inherits the mask: tmux's server, started so, ignored kill-server's SIGTERM. And a signal gymcard
/// ignores or handles must not stay so in a program it starts.
public enum SpawnAttributes {
    /// Calls `body` with spawn attributes that clear the signal mask and set every signal to its default,
    /// and have `flags` (such as ``newSession``) besides.
    public static func clean<Result>(flags: Int32 = 0, _ body: (inout posix_spawnattr_t) throws -> Result)
        rethrows -> Result
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return try body(&attributes)
    }

    /// glibc's `POSIX_SPAWN_SETSID` (spawn.h, glibc 2.26), which Swift's Glibc module does not show (it
    /// needs `_GNU_SOURCE`): the child starts a session of its own.
    public static let newSession: Int32 = 0x80

    /// Adds "close every descriptor from `lowest` up" to `actions`, so that the program keeps no descriptor
    /// of gymcard's that was opened without close-on-exec (a lock, another child's pipe). glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34; `_GNU_SOURCE` only, so looked up); on an older
    /// glibc nothing is added.
    public static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        _ = addCloseFrom.map { $0(&actions, lowest) }
    }

    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
            guard let process = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(process, "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
        }()
}

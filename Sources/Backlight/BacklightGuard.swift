import Glibc
import Spawning

/// The backlight at full for as long as this process shows the card, and put back however it ends
/// (ARCHITECTURE §16).
///
/// The level is not changed by this process but by a guardian: `gymcard` started again as
/// ``BacklightGuardian``, in a session of its own, holding one end of a socket. It raises the backlight
/// and waits; when this process's end closes (``finish(timeoutMilliseconds:)``, a signal's handler, a
/// crash, `kill -9`), the kernel tells it, and it puts the level back. A signal handler cannot talk to
/// D-Bus, and nothing runs in a process killed with SIGKILL, so nothing in this process could do it on
/// every way out.
public struct BacklightGuard: Sendable {
    /// This process's end of the socket (close-on-exec, so that no other child holds it open).
    public let descriptor: Int32
    /// The guardian.
    public let process: pid_t

    /// Starts the guardian over `folder`'s backlights from `executable` (this binary), in `environment`
    /// (the system bus's address, a remote shell's variables); `nil` when it cannot be started, and then
    /// nothing is changed.
    public static func start(
        folder: BacklightFolder, environment: [String: String], executable: String = "/proc/self/exe"
    ) -> BacklightGuard? {
        // A session of its own: the terminal's hang-up and Ctrl-C, and a signal to our process group, do
        // not reach it. It says nothing.
        guard
            let child = SocketChild.start(
                executable, arguments: ["gymcard", BacklightGuardian.argument, folder.path],
                environment: environment, flags: SpawnAttributes.newSession)
        else { return nil }
        return BacklightGuard(descriptor: child.socket, process: child.process)
    }

    /// Ends the guard: the guardian puts the level back, and this waits until it has (at most
    /// `timeoutMilliseconds`, beyond logind's own timeout), so that the shell's prompt comes back to the
    /// screen as it was.
    public func finish(timeoutMilliseconds: Int32 = 3000) {
        Self.release(descriptor, timeoutMilliseconds: timeoutMilliseconds)
        close(descriptor)
        var status: Int32 = 0
        while waitpid(process, &status, WNOHANG) < 0, errno == EINTR {}
    }

    /// Tells the guardian to put the level back (shuts down our writing half) and waits for it to end (its
    /// end closes). Async-signal-safe: `shutdown`, `clock_gettime`, `poll` and `read` only, so that a
    /// signal's handler can call it before `_exit`.
    public static func release(_ descriptor: Int32, timeoutMilliseconds: Int32) {
        shutdown(descriptor, Int32(SHUT_WR))
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var buffer: (UInt64, UInt64) = (0, 0)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
            guard elapsed < Int(timeoutMilliseconds) else { return }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, timeoutMilliseconds - Int32(elapsed))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return }
            let count = withUnsafeMutableBytes(of: &buffer) { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            // Its report, then the end of the stream when it exits.
            guard count > 0 else { return }
        }
    }
}

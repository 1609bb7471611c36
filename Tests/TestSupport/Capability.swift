import Foundation

/// What this machine lets a test do that only trying shows (root in a container may lack each): each tried
/// once, in a throwaway directory, for `.enabled(if:)`. What the kernel permits is no tool or data the
/// install script can provide, so a test without it is a visible skip under `CI=true` too (a container
/// without CAP_SYS_ADMIN refuses mounts); what the test also needs that can be installed goes through
/// `Prerequisite.runs`. Inside the test the real attempt then fails the test (`#require`), never returns
/// early.
public enum Capability {
    /// Whether `unshare -m` gives a private mount namespace in which a bind mount is permitted (how the tests
    /// hide a system library from one gymcard process).
    public static let mountNamespaces: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
            let directory = try? TemporaryDirectory()
        else { return false }
        let (source, target) = (directory.path + "/source", directory.path + "/target")
        _ = FileManager.default.createFile(atPath: source, contents: Data())
        _ = FileManager.default.createFile(atPath: target, contents: Data())
        let status = try? ChildProcess.runBlocking(
            ["/usr/bin/unshare", "-m", "mount", "--bind", source, target])
        return status == 0
    }()

    /// Whether a small tmpfs may be mounted (and unmounted) here, as the full-disk tests mount one.
    public static let tmpfsMount: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        guard
            (try? ChildProcess.runBlocking([
                "/usr/bin/env", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path,
            ])) == 0
        else { return false }
        return (try? ChildProcess.runBlocking(["/usr/bin/env", "umount", directory.path])) == 0
    }()

    /// Whether a character device (a copy of /dev/null, major 1 minor 3) may be made with mknod.
    public static let makeDevice: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        return mknod(directory.path + "/null", S_IFCHR | 0o666, nullDevice) == 0
    }()

    /// /dev/null's device number, major 1 minor 3 (glibc's makedev is a macro Swift cannot call).
    private static let nullDevice: dev_t = (1 << 8) | 3
}

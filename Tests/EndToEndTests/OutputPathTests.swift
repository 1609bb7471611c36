import Foundation
import Synchronization
import TestSupport
import Testing

/// What a person names with `--png`, `--svg` and `--qr` is written the way zint, qrencode and age write
/// it: devices, FIFOs and `/dev/fd/N` opened and written in place, links followed, modes kept.
@Suite("Output paths, end to end")
struct OutputPathTests {
    /// /dev/null's device number, major 1 minor 3 (glibc's makedev is a macro Swift cannot call).
    static let nullDevice: dev_t = (1 << 8) | 3

    static func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    @Test(
        "a character device (a /dev/null made with mknod) is written, not replaced",
        .enabled(
            if: Capability.makeDevice,
            "mknod of a character device must be permitted (root)"))
    func characterDevice() async throws {
        let home = try TemporaryDirectory()
        let device = home.path + "/nul"
        try #require(
            mknod(device, S_IFCHR | 0o666, Self.nullDevice) == 0,
            "mknod is not permitted here (\(String(cString: strerror(errno))))")
        let gymcard = GymcardProcess(home: home.path)
        for option in ["--png", "--svg", "--qr"] {
            let result = try await gymcard.run(["show", "--id", "905123456", option, device])
            #expect(result.status == 0, "\(option): \(result.stderr)")
            #expect(Self.fileType(device) == S_IFCHR, "\(option) left \(device) a device")
        }
        var status = stat()
        #expect(stat(device, &status) == 0 && status.st_rdev == Self.nullDevice)
        #expect(try home.contents() == ["nul"], "nothing else is left beside it")
    }

    /// Everything a writer sends through the FIFO at `path` until it closes, or what arrived by the
    /// deadline. Opened non-blocking, so that a FIFO replaced by a file cannot leave the reader stuck.
    static func readFIFO(_ path: String, deadline: Date) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return Data() }
        defer { close(descriptor) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0, !received.isEmpty {
                break  // the writer closed
            } else {
                usleep(5000)  // no writer yet (0), or nothing to read yet (EAGAIN)
            }
        }
        return received
    }

    @Test("a FIFO is opened and written to its reader, and stays a FIFO")
    func fifo() async throws {
        let home = try TemporaryDirectory()
        let fifo = home.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader starts now on a thread of its own: gymcard's open(2) waits for it.
        let received = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        Thread {
            let data = Self.readFIFO(fifo, deadline: Date().addingTimeInterval(30))
            received.withLock { $0 = data }
            done.signal()
        }.start()
        let result = try await GymcardProcess(home: home.path).run(
            ["show", "--id", "905123456", "--svg", fifo], timeoutSeconds: 300)
        try await OffThePool.run { done.wait() }
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
        #expect(text.hasPrefix("<?xml"))
        #expect(text.hasSuffix("</svg>\n"))
        #expect(Self.fileType(fifo) == S_IFIFO)
        #expect(try home.contents() == ["pipe"])
    }

    @Test("process substitution (/dev/fd/N) receives the PNG, which libzbar reads")
    func processSubstitution() async throws {
        let home = try TemporaryDirectory()
        let output = home.path + "/via-pipe.png"
        let script = """
            "$0" show --id 905123456 --png >(cat > "$1"); status=$?; wait $!; exit $status
            """
        let environment = GymcardProcess(home: home.path).environment
        let run = try await ChildProcess.run(
            "/bin/bash", ["-c", script, GymcardProcess.executable.path, output], environment: environment)
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(try decodeFile(output) == ["A905123456B"])
    }

    @Test("a link to standard output (as /dev/stdout is) writes to standard output and stays a link")
    func linkToStandardOutput() async throws {
        let home = try TemporaryDirectory()
        let link = home.path + "/out.svg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let result = try await GymcardProcess(home: home.path).run([
            "show", "--id", "905123456", "--svg", link,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("<?xml"))
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/proc/self/fd/1")
        #expect(try home.contents() == ["out.svg"])
    }

    @Test("a link to a regular file replaces the file, keeps the link, and keeps the file's mode")
    func linkToRegularFile() async throws {
        let home = try TemporaryDirectory()
        let target = home.path + "/real.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o640)
        try FileManager.default.createSymbolicLink(
            atPath: home.path + "/card.png", withDestinationPath: "real.png")
        let result = try await GymcardProcess(home: home.path).run([
            "show", "--id", "905123456", "--png", home.path + "/card.png",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fileType(home.path + "/card.png") == S_IFLNK)
        #expect(try decodeFile(target) == ["A905123456B"])
        #expect(Self.mode(target) == 0o640)
        #expect(try home.contents() == ["card.png", "real.png"])
    }

    @Test("a new file gets the mode open(2) gives it: 0666 minus the umask")
    func newFileHonoursUmask() async throws {
        let home = try TemporaryDirectory()
        let environment = GymcardProcess(home: home.path).environment
        let directory = home.path
        let run = try await ChildProcess.run(
            "/bin/bash",
            [
                "-c", "umask 077; exec \"$0\" show --id 905123456 --png \"$1\" --qr \"$2\"",
                GymcardProcess.executable.path, directory + "/private.png", directory + "/private-qr.png",
            ], environment: environment)
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(Self.mode(home.path + "/private.png") == 0o600)
        #expect(Self.mode(home.path + "/private-qr.png") == 0o600)
    }

    @Test("a directory, or a name ending in /, is refused with one line and exit 74")
    func directoryRefused() async throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: home.path + "/folder", withIntermediateDirectories: false)
        let gymcard = GymcardProcess(home: home.path)
        for path in [home.path + "/folder", home.path + "/missing/"] {
            let result = try await gymcard.run(["show", "--id", "905123456", "--png", path])
            #expect(result.status == 74)
            #expect(result.stderrLines == ["gymcard: cannot write \(path): is a directory; give a file name"])
        }
        #expect(try home.contents() == ["folder"])
    }
}

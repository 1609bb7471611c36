import CZXing
import Glibc
import Spawning
import Synchronization

/// zxing-cpp's helper process (`gymcard-zxing`, built from Sources/gymcard-zxing), started with
/// `posix_spawn` the first time a photo needs the second engine, and kept for the reads after it.
///
/// Debian's zxing-cpp 1.4.0 has only a C++ API, and it is built with assertions on, one of which fires on
/// some photos and aborts its process. In a process of its own, zxing-cpp neither loads libZXing and the
/// C++ runtime into every gymcard process (the status bars' included) nor takes gymcard down; and unlike a
/// forked child of gymcard's threaded process (the cascade's warm-up runs beside the read), a process
/// started with exec may run C++ at all (docs/ARCHITECTURE.md §14, "zxing-cpp in a process of its own").
///
/// The helper is looked for beside the running executable (the build folder) and in `../lib/gymcard` from
/// it (where scripts/install puts it). It is used only when it starts and says hello as this build expects
/// (a helper of another build answers with other sizes); when it is missing, or when libZXing.so.2 is not
/// installed (it cannot start), gymcard reads with libzbar alone. Reads from several threads at once each
/// get a helper of their own; a helper that dies during a read (the assertion) is replaced for the next.
final class ZXingHelper: Sendable {
    /// The helper's file name.
    static let programName = "gymcard-zxing"

    /// The helper in use, started once per process; `nil` when none can be started.
    static let shared: ZXingHelper? = candidatePaths().lazy.compactMap(ZXingHelper.init(path:)).first

    /// The zxing-cpp version the helper was built against.
    let version: String
    private let path: String
    /// Helpers started and not reading now.
    private let idle: Mutex<[Connection]>

    /// A pool of its own (``shared`` is the one gymcard uses); nil when no helper starts from `path`.
    init?(path: String) {
        guard access(path, X_OK) == 0, let (connection, hello) = Connection.start(path) else { return nil }
        self.path = path
        version = withUnsafeBytes(of: hello.version) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        idle = Mutex([connection])
    }

    /// Reads `luma` in a helper: the number of results written to `results`, or a negative
    /// GYMCARD_ZXING_* code (GYMCARD_ZXING_ABORTED when the helper died during the read).
    func read(
        luma: UnsafeBufferPointer<UInt8>, width: Int32, height: Int32, rowStride: Int32, formats: Int32,
        tryHarder: Bool, into results: UnsafeMutableBufferPointer<gymcard_zxing_result>
    ) -> Int32 {
        guard let connection = takeIdle() ?? Connection.start(path)?.connection else {
            return Int32(GYMCARD_ZXING_FAILED)
        }
        var request = gymcard_zxing_request(
            lumaCount: UInt64(luma.count), width: width, height: height, rowStride: rowStride,
            formats: formats,
            tryHarder: tryHarder ? 1 : 0, capacity: Int32(min(results.count, Int(GYMCARD_ZXING_MOST_RESULTS)))
        )
        guard let count = connection.exchange(&request, luma: luma, into: results) else {
            connection.end()
            return Int32(GYMCARD_ZXING_ABORTED)
        }
        idle.withLock { $0.append(connection) }
        return count
    }

    /// An idle helper that is still running (one killed while idle, by a person or the OOM killer, is
    /// reaped and left out).
    private func takeIdle() -> Connection? {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isRunning { return connection }
            connection.end()
        }
        return nil
    }

    /// The process IDs of the helpers started and not reading now.
    var idleProcessIDs: [pid_t] { idle.withLock { $0.map(\.processID) } }

    /// Where the helper may be: beside the executable, then in the installed layout's library folder.
    static func candidatePaths() -> [String] {
        guard let folder = RunningExecutable.folder else { return [] }
        return [folder + programName, folder + "../lib/gymcard/" + programName]
    }
}

/// One running helper and the socket gymcard speaks to it through (its standard input and output). Used
/// by one read at a time (``ZXingHelper`` hands it out under its lock).
private final class Connection: @unchecked Sendable {
    let processID: pid_t
    let socket: Int32

    private init(processID: pid_t, socket: Int32) {
        self.processID = processID
        self.socket = socket
    }

    /// Starts the helper at `path` and reads its hello; nil when it does not start or is of another build.
    static func start(_ path: String) -> (connection: Connection, hello: gymcard_zxing_hello)? {
        // Its standard input and output are the socket (SocketChild: a write to a helper that died fails
        // with EPIPE instead of raising SIGPIPE in gymcard); its standard error is /dev/null.
        guard let child = SocketChild.start(path, arguments: [path], socketIsOutput: true) else { return nil }
        let connection = Connection(processID: child.process, socket: child.socket)
        // A program there that is no helper of this build (a script that prints something, or nothing,
        // and sleeps) is given up after 3 s rather than waited for.
        connection.limitWaits(toSeconds: 3)
        var hello = gymcard_zxing_hello()
        guard connection.receive(&hello, byteCount: MemoryLayout<gymcard_zxing_hello>.size),
            hello.magic == GYMCARD_ZXING_MAGIC, hello.protocol == GYMCARD_ZXING_PROTOCOL,
            hello.requestSize == MemoryLayout<gymcard_zxing_request>.size,
            hello.resultSize == MemoryLayout<gymcard_zxing_result>.size
        else {
            connection.end()
            return nil
        }
        // A read of the largest photo takes seconds; a helper silent for two minutes is stuck.
        connection.limitWaits(toSeconds: 120)
        return (connection, hello)
    }

    /// Each wait for the helper's answer ends after `seconds` (a read then fails, and the helper is ended).
    func limitWaits(toSeconds seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends one request and its samples and receives the answer; nil when the helper died.
    func exchange(
        _ request: inout gymcard_zxing_request, luma: UnsafeBufferPointer<UInt8>,
        into results: UnsafeMutableBufferPointer<gymcard_zxing_result>
    ) -> Int32? {
        let sent = withUnsafeBytes(of: &request) { send($0) } && send(UnsafeRawBufferPointer(luma))
        var count: Int32 = 0
        guard sent, receive(&count, byteCount: MemoryLayout<Int32>.size), count <= request.capacity else {
            return nil
        }
        guard count > 0 else { return count }
        let byteCount = MemoryLayout<gymcard_zxing_result>.stride * Int(count)
        guard let base = results.baseAddress, receive(base, byteCount: byteCount) else { return nil }
        return count
    }

    /// Whether the helper has not ended.
    var isRunning: Bool {
        var information = siginfo_t()
        return waitid(P_PID, id_t(processID), &information, WEXITED | WNOHANG | WNOWAIT) == 0
            && information._sifields._sigchld.si_pid == 0
    }

    /// Ends the helper (it may be reading or dead already) and reaps it.
    func end() {
        close(socket)
        kill(processID, SIGKILL)
        while waitpid(processID, nil, 0) < 0, errno == EINTR {}
    }

    private func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var next = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.send(socket, next, left, Int32(MSG_NOSIGNAL))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            next += written
            left -= written
        }
        return true
    }

    private func receive(_ destination: UnsafeMutableRawPointer, byteCount: Int) -> Bool {
        var next = destination
        var left = byteCount
        while left > 0 {
            let got = recv(socket, next, left, 0)
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            next += got
            left -= got
        }
        return true
    }
}

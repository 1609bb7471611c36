import Glibc

/// Reads a text file one line at a time, so memory stays flat however long the file is, and however long
/// its lines: a line longer than `maximumLineBytes` is cut there (the rest of it is read and dropped).
///
/// Reads through its own buffer with read(2), so that waiting for input that has not come (a pipe whose
/// writer is slow, a terminal) can be given up: see ``stopWaiting``.
public final class LineReader: Sequence, IteratorProtocol {
    private let descriptor: Int32
    private let maximumLineBytes: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var bytes: [UInt8] = []
    /// The 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    /// Whether the line last returned is text: no NUL byte, valid UTF-8 and not cut. A binary file read
    /// as lines gives lines that are not.
    public private(set) var lineIsText = true
    /// Asked every tenth of a second while no input has come: `true` ends the reading there, as the end
    /// of the file would (``stopped`` then says why). A signal that asks for an orderly stop is noticed
    /// so, though the handler lets read(2) restart. `nil`: wait as long as it takes.
    public var stopWaiting: (() -> Bool)?
    /// Whether the reading ended because ``stopWaiting`` said so.
    public private(set) var stopped = false

    /// Opens `path` for reading; a directory or a missing file is an error.
    public init(path: String, maximumLineBytes: Int = 1 << 16) throws(StorageError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "read")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .isDirectory(path: path) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StorageError(errno: errno, path: path, operation: "read") }
        self.descriptor = descriptor
        self.maximumLineBytes = maximumLineBytes
    }

    /// Reads standard input (a copy of its descriptor, so closing the reader leaves descriptor 0 open).
    public static func standardInput(maximumLineBytes: Int = 1 << 16) throws(StorageError) -> LineReader {
        let descriptor = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else {
            throw StorageError(errno: errno, path: "standard input", operation: "read")
        }
        return LineReader(descriptor: descriptor, maximumLineBytes: maximumLineBytes)
    }

    /// Reads `descriptor`, which it closes at the end.
    init(descriptor: Int32, maximumLineBytes: Int) {
        self.descriptor = descriptor
        self.maximumLineBytes = maximumLineBytes
    }

    deinit { close(descriptor) }

    /// The next line without its line ending (`\n` or `\r\n`), or `nil` at the end of the file (or once
    /// ``stopWaiting`` said to stop).
    public func next() -> String? {
        bytes.removeAll(keepingCapacity: true)
        var cut = false
        var ended = false
        reading: while start < end || refill() {
            ended = true
            let available = buffer[start..<end]
            let newline = available.firstIndex(of: 10)
            let piece = available[..<(newline ?? end)]
            let room = maximumLineBytes - bytes.count
            if piece.count > room { cut = true }
            bytes.append(contentsOf: piece.prefix(Swift.max(0, room)))
            if let newline {
                start = newline + 1
                break reading
            }
            start = end
        }
        guard ended else { return nil }
        lineNumber += 1
        while let last = bytes.last, last == 10 || last == 13 { bytes.removeLast() }
        let text = String(validating: bytes, as: UTF8.self)
        lineIsText = !cut && text != nil && !bytes.contains(0)
        return text ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Whether ``next()`` can return without waiting: a whole line is buffered, or the input has bytes (or
    /// its end) ready. A pipe whose writer is slow, or a terminal, has none until more is written.
    public var hasLineReady: Bool {
        if stopped || buffer[start..<end].contains(10) { return true }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) != 0
    }

    /// Fills the buffer; false at the end of the file, on a read error, or when told to stop waiting.
    private func refill() -> Bool {
        guard !stopped else { return false }
        while true {
            if let stopWaiting {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&waiting, 1, 100)
                if ready <= 0 {
                    guard ready == 0 || errno == EINTR else { return false }
                    if stopWaiting() {
                        stopped = true
                        return false
                    }
                    continue
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                (start, end) = (0, count)
                return true
            }
            guard count < 0, errno == EINTR else { return false }
        }
    }
}

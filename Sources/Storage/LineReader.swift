import Glibc

/// Reads a text file one line at a time, so memory stays flat however long the file is, and however long
/// its lines: a line longer than `maximumLineBytes` is cut there (the rest of it is read and dropped).
public final class LineReader: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>
    private let maximumLineBytes: Int
    private var bytes: [UInt8] = []
    /// The 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    /// Whether the line last returned is text: no NUL byte, valid UTF-8 and not cut. A binary file read
    /// as lines gives lines that are not.
    public private(set) var lineIsText = true

    /// Opens `path` for reading; a directory or a missing file is an error.
    public init(path: String, maximumLineBytes: Int = 1 << 16) throws(StorageError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "read")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .isDirectory(path: path) }
        guard let file = fopen(path, "r") else {
            throw StorageError(errno: errno, path: path, operation: "read")
        }
        self.file = file
        self.maximumLineBytes = maximumLineBytes
    }

    /// Reads standard input (a copy of its descriptor, so closing the reader leaves descriptor 0 open).
    public static func standardInput(maximumLineBytes: Int = 1 << 16) throws(StorageError) -> LineReader {
        let descriptor = dup(STDIN_FILENO)
        guard descriptor >= 0, let file = fdopen(descriptor, "r") else {
            throw StorageError(errno: errno, path: "standard input", operation: "read")
        }
        return LineReader(file: file, maximumLineBytes: maximumLineBytes)
    }

    private init(file: UnsafeMutablePointer<FILE>, maximumLineBytes: Int) {
        self.file = file
        self.maximumLineBytes = maximumLineBytes
    }

    deinit { fclose(file) }

    /// The next line without its line ending (`\n` or `\r\n`), or `nil` at the end of the file.
    public func next() -> String? {
        bytes.removeAll(keepingCapacity: true)
        var cut = false
        var ended = false
        while true {
            let character = getc_unlocked(file)
            if character == EOF { break }
            ended = true
            if character == 10 { break }
            if bytes.count < maximumLineBytes {
                bytes.append(UInt8(truncatingIfNeeded: character))
            } else {
                cut = true
            }
        }
        guard ended else { return nil }
        lineNumber += 1
        while let last = bytes.last, last == 10 || last == 13 { bytes.removeLast() }
        let text = String(validating: bytes, as: UTF8.self)
        lineIsText = !cut && text != nil && !bytes.contains(0)
        return text ?? String(decoding: bytes, as: UTF8.self)
    }
}

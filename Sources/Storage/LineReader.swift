import Glibc

/// Reads a text file one line at a time, so memory stays flat however long the file is.
public final class LineReader: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// The 1-based number of the line last returned.
    public private(set) var lineNumber = 0

    /// Opens `path` for reading; a directory or a missing file is an error.
    public init(path: String) throws(StorageError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw StorageError(errno: errno, path: path, operation: "read")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .isDirectory(path: path) }
        guard let file = fopen(path, "r") else {
            throw StorageError(errno: errno, path: path, operation: "read")
        }
        self.file = file
    }

    /// Reads standard input (a copy of its descriptor, so closing the reader leaves descriptor 0 open).
    public static func standardInput() throws(StorageError) -> LineReader {
        let descriptor = dup(STDIN_FILENO)
        guard descriptor >= 0, let file = fdopen(descriptor, "r") else {
            throw StorageError(errno: errno, path: "standard input", operation: "read")
        }
        return LineReader(file: file)
    }

    private init(file: UnsafeMutablePointer<FILE>) { self.file = file }

    deinit {
        free(buffer)
        fclose(file)
    }

    /// The next line without its line ending (`\n` or `\r\n`), or `nil` at the end of the file.
    public func next() -> String? {
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else { return nil }
        lineNumber += 1
        var bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length)
        while let last = bytes.last, last == 10 || last == 13 {
            bytes = UnsafeBufferPointer(rebasing: bytes.dropLast())
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

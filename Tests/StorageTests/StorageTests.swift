import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Storage

@Suite("Atomic file replacement")
struct AtomicFileTests {
    @Test(
        "writes the bytes with the requested permissions and leaves no temporary file",
        arguments: [0o644, 0o600])
    func writes(permissions: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/card.png"
        try AtomicFile.write(Array("first".utf8), to: path, permissions: mode_t(permissions), durable: true)
        try AtomicFile.write(Array("second".utf8), to: path, permissions: mode_t(permissions))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == permissions)
        #expect(try directory.contents() == ["card.png"])
    }

    @Test("a directory in the way is refused and left alone")
    func directoryInTheWay() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/out"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: StorageError.isDirectory(path: path)) { try AtomicFile.write([1], to: path) }
        #expect(try directory.contents() == ["out"])
    }

    @Test("a missing parent or a file as parent fails cleanly, and the old file survives")
    func badParents() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/file"
        try AtomicFile.write(Array("keep".utf8), to: file)
        #expect(throws: StorageError.notFound(path: directory.path + "/missing/x.png")) {
            try AtomicFile.write([1], to: directory.path + "/missing/x.png")
        }
        #expect(throws: StorageError.notDirectory(path: file + "/x.png")) {
            try AtomicFile.write([1], to: file + "/x.png")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")
        #expect(try directory.contents() == ["file"])
    }

    @Test("errors speak to people", arguments: [StorageError.noSpace(path: "/x"), .notPermitted(path: "/x")])
    func messages(error: StorageError) {
        #expect(error.description.hasPrefix("/x: "))
        #expect(error.description.count > 20)
    }
}

/// A flag set on one thread and read on another.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

@Suite("Reading lines")
struct LineReaderTests {
    @Test("LF, CRLF, a missing final newline and line numbers")
    func lines() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/ids.txt"
        try Data("one\r\ntwo\n\nfour".utf8).write(to: URL(fileURLWithPath: path))
        let reader = try LineReader(path: path)
        var seen: [(Int, String)] = []
        for line in reader { seen.append((reader.lineNumber, line)) }
        #expect(seen.map(\.0) == [1, 2, 3, 4])
        #expect(seen.map(\.1) == ["one", "two", "", "four"])
    }

    @Test("a NUL byte, bytes that are not UTF-8 or an overlong line are not text; a long line is cut")
    func notText() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/ids.txt"
        var bytes = Array("A123B\nnul\u{0}here\n".utf8) + [0xFF, 0xD8, 0x0A] + Array("café\n".utf8)
        bytes += [UInt8](repeating: 0x41, count: 200) + [0x0A] + Array("last".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try LineReader(path: path, maximumLineBytes: 100)
        var seen: [(text: Bool, count: Int)] = []
        for line in reader { seen.append((reader.lineIsText, line.utf8.count)) }
        #expect(seen.map(\.text) == [true, false, false, true, false, true])
        #expect(seen.map(\.count)[4] == 100)
    }

    @Test("lines across the reader's 64 KiB buffer, and a cut line longer than it, come whole and in order")
    func acrossTheBuffer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/ids.txt"
        let lines = (0..<30_000).map { "A\($0)B" }
        let long = String(repeating: "x", count: 200_000)
        try Data((lines + [long, "last"]).joined(separator: "\r\n").utf8).write(
            to: URL(fileURLWithPath: path))
        let reader = try LineReader(path: path, maximumLineBytes: 1000)
        var seen: [String] = []
        var cut: [Int] = []
        for line in reader {
            seen.append(line)
            if !reader.lineIsText { cut.append(reader.lineNumber) }
        }
        #expect(seen.count == 30_002)
        #expect(Array(seen.prefix(30_000)) == lines)
        #expect(seen[30_000].count == 1000 && seen.last == "last")
        #expect(cut == [30_001])
        #expect(!reader.stopped)
    }

    @Test("waiting on a pipe: what comes is read; told to stop waiting, the reading ends there")
    func stopWaitingOnAPipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let reader = LineReader(descriptor: ends[0], maximumLineBytes: 1 << 16)
        let stop = Flag()
        reader.stopWaiting = { stop.isSet }
        _ = "one\n".withCString { write(ends[1], $0, 4) }
        #expect(reader.next() == "one")
        // Written while the reader waits (told not to stop): read, not lost.
        let writing = ends[1]
        let writer = Thread {
            usleep(300_000)
            _ = "two\n".withCString { write(writing, $0, 4) }
        }
        writer.start()
        #expect(reader.next() == "two")
        #expect(!reader.stopped)
        // Nothing more comes and the writer stays open: a stop ends the wait.
        stop.set()
        #expect(reader.next() == nil)
        #expect(reader.stopped)
    }

    @Test(
        "a line is ready when one is buffered or the pipe has bytes or its end; not while the writer is quiet"
    )
    func lineReadyOnAPipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = LineReader(descriptor: ends[0], maximumLineBytes: 1 << 16)
        #expect(!reader.hasLineReady)
        _ = "one\ntwo\nthr".withCString { write(ends[1], $0, 11) }
        #expect(reader.hasLineReady)
        #expect(reader.next() == "one")
        // "two" is buffered whole; "thr" only in part, with nothing more in the pipe.
        #expect(reader.hasLineReady)
        #expect(reader.next() == "two")
        #expect(!reader.hasLineReady)
        close(ends[1])
        // The end of the input is ready too: the last line without its newline, then nil.
        #expect(reader.hasLineReady)
        #expect(reader.next() == "thr")
        #expect(reader.next() == nil)
    }

    @Test("a directory or a missing file is an error")
    func badInput() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StorageError.isDirectory(path: directory.path)) {
            try LineReader(path: directory.path)
        }
        #expect(throws: StorageError.notFound(path: directory.path + "/none")) {
            try LineReader(path: directory.path + "/none")
        }
    }
}

@Suite("XDG base directories")
struct XDGDirectoriesTests {
    @Test("absolute values win, relative ones are ignored, defaults under HOME")
    func resolution() {
        let directories = XDGDirectories(environment: [
            "HOME": "/home/hokie", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "relative/config",
        ])
        #expect(directories.dataHome == "/data")
        #expect(directories.configHome == "/home/hokie/.config")
        #expect(directories.cacheHome == "/home/hokie/.cache")
        #expect(directories.stateHome == "/home/hokie/.local/state")
    }
}

@Suite("File locks")
struct FileLockTests {
    @Test("the lock is exclusive across threads, and the body's error comes back as it was thrown")
    func exclusive() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/.lock"
        let inside = Mutex(0)
        let most = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            try? FileLock.withExclusiveLock(on: path) { () throws(StorageError) in
                let now = inside.withLock { value in
                    value += 1
                    return value
                }
                most.withLock { $0 = max($0, now) }
                usleep(2000)
                inside.withLock { $0 -= 1 }
            }
        }
        #expect(most.withLock { $0 } == 1)
        #expect(throws: FileLock.LockError<StorageError>.self) {
            try FileLock.withExclusiveLock(on: path) { () throws(StorageError) in
                throw StorageError.noSpace(path: "x")
            }
        }
        #expect(throws: FileLock.LockError<StorageError>.self) {
            try FileLock.withExclusiveLock(on: directory.path + "/missing/.lock") { () throws(StorageError) in
            }
        }
    }
}

@Suite("Swapping two files")
struct FileExchangeTests {
    @Test("exchange, and its three-step fallback, swap two files' names, keeping each file's bytes and mode")
    func swaps() throws {
        let directory = try TemporaryDirectory()
        let (first, second) = (directory.path + "/card.age", directory.path + "/card.age.bak")
        try AtomicFile.write(Array("current".utf8), to: first, permissions: 0o600)
        try AtomicFile.write(Array("previous".utf8), to: second, permissions: 0o640)
        try FileExchange.exchange(first, second, staging: second + ".new")
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "previous")
        #expect(try String(contentsOfFile: second, encoding: .utf8) == "current")
        #expect((try FileManager.default.attributesOfItem(atPath: first)[.posixPermissions] as? Int) == 0o640)
        try FileExchange.exchangeInSteps(first, second, staging: second + ".new")
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "current")
        #expect(try String(contentsOfFile: second, encoding: .utf8) == "previous")
        #expect(try directory.contents() == ["card.age", "card.age.bak"])
        #expect(throws: StorageError.self) {
            try FileExchange.exchange(first, directory.path + "/missing", staging: second + ".new")
        }
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "current")
    }
}

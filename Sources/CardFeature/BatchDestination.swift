import Glibc
import GymcardCore
import Storage
import Synchronization

/// The directory a batch's files go to, and what was written there.
///
/// An existing directory (empty or not, reached directly or through a symbolic link) is written into
/// and otherwise left alone: its inode, mode, owner, group and ACLs are the person's. A missing one is
/// created, with missing parents, as `mkdir -p` would. Each file is written as ``UserFile`` writes any
/// path a person names: complete or not at all, a new file never visible half-written (Linux's
/// `O_TMPFILE`), so no staging directory is needed and an interrupted batch leaves only complete files.
/// Directories made here are removed again when the batch writes nothing into them, also on Ctrl-C.
public final class BatchDestination: Sendable {
    /// The directory, as the person named it.
    public let directory: String
    /// The directories made for this batch, deepest first, each registered for removal while empty.
    private let created: [(path: String, registration: TemporaryNames.Registration?)]
    /// The distinct file names written so far (IDs that normalize alike share a file).
    private let written = Mutex(Set<String>())

    /// The destination `directory`, made (with missing parents) when it is not there.
    public init(directory: String) throws(BatchProblem) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw .notADirectory(directory)
            }
            self.directory = directory
            created = []
            return
        }
        self.directory = directory
        created = try Self.makeDirectories(directory)
    }

    /// Writes one file (replacing an earlier one of the same name).
    public func write(_ bytes: [UInt8], named name: String) throws(StorageError) {
        try UserFile.write(bytes, to: directory + "/" + name)
        _ = written.withLock { $0.insert(name) }
    }

    /// How many distinct files have been written.
    public var fileCount: Int { written.withLock { $0.count } }

    /// "1 file written to DIR", "4 files written to DIR" (distinct files, however many IDs shared them),
    /// or "no files written".
    public var summary: String {
        let count = fileCount
        return count == 0
            ? "no files written" : "\(count) \(count == 1 ? "file" : "files") written to \(directory)"
    }

    /// The summary for a batch stopped part-way: the files written are each complete.
    public var stoppedSummary: String { fileCount == 0 ? summary : summary + ", each one complete" }

    /// Ends the batch: directories made for it stay when they hold files, and are removed when empty.
    public func finish() {
        for (path, registration) in created {
            TemporaryNames.unregister(registration)
            rmdir(path)  // fails, as it should, when the directory is not empty
        }
    }

    /// `mkdir -p`: the missing directories, outermost first, with the mode mkdir(1) gives (0777 minus the
    /// umask). Returns them deepest first, registered for removal while still empty.
    private static func makeDirectories(_ directory: String) throws(BatchProblem) -> [(
        String, TemporaryNames.Registration?
    )] {
        var missing: [String] = []
        var current = directory
        while true {
            while current.count > 1, current.hasSuffix("/") { current.removeLast() }
            var status = stat()
            if stat(current, &status) == 0 { break }
            missing.append(current)
            let parent = AtomicFile.directory(of: current)
            guard parent != current else { break }
            current = parent
        }
        var made: [(String, TemporaryNames.Registration?)] = []
        for path in missing.reversed() {
            let registration = TemporaryNames.register(path, as: .emptyDirectory)
            if mkdir(path, 0o777) == 0 {
                made.append((path, registration))
                continue
            }
            let code = errno
            TemporaryNames.unregister(registration)
            if code == EEXIST { continue }  // made by someone else meanwhile: theirs, not ours to remove
            for (earlier, earlierRegistration) in made.reversed() {
                TemporaryNames.unregister(earlierRegistration)
                rmdir(earlier)
            }
            throw .cannotCreateDirectory(StorageError(errno: code, path: path, operation: "create"))
        }
        return made.reversed()
    }
}

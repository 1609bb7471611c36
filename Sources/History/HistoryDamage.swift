import FoundationEssentials
import Glibc
import Storage

/// A damaged history: found on opening or on the way, moved aside once (however many gymcard processes
/// found it) with a warning, and a new history started.
extension HistoryStore {
    /// Opens the history; a file found damaged is moved aside (unless another gymcard already did) and
    /// a new history started. Returns the connection and the file it is on.
    static func openConnection(
        _ path: String, create: Bool, readOnly: Bool = false, clock: () -> Date, warnings: inout [String]
    ) throws(HistoryError) -> (SQLiteConnection, FileIdentity?) {
        let found = FileIdentity(path)
        do {
            return (try connect(path, create: create, readOnly: readOnly), found ?? FileIdentity(path))
        } catch let error as SQLiteError where error.isCorrupt {
            guard !readOnly else { throw .damaged(path: path) }
            return try replaceDamaged(path, found: found, clock: clock, warnings: &warnings)
        } catch {
            throw historyError(error, path: path)
        }
    }

    /// Moves the damaged file `found` aside and starts a new history, holding a lock beside the history
    /// so that two gymcard processes that found the same damage move it once: the second finds a
    /// different file at `path` (the first one's new history) and opens it instead of moving it.
    static func replaceDamaged(
        _ path: String, found: FileIdentity?, clock: () -> Date, warnings: inout [String]
    ) throws(HistoryError) -> (SQLiteConnection, FileIdentity?) {
        let lockPath = AtomicFile.directory(of: path) + "/." + fileName(of: path) + ".lock"
        do {
            return try FileLock.withExclusiveLock(on: lockPath) { () throws(HistoryError) in
                if found == nil || FileIdentity(path) == found {
                    warnings.append(try moveAside(path, now: clock()))
                }
                do { return (try connect(path, create: true), FileIdentity(path)) } catch {
                    throw historyError(error, path: path)
                }
            }
        } catch {
            switch error {
            case .storage(let failure): throw historyError(failure, path: path)
            case .body(let failure): throw failure
            }
        }
    }

    /// already has that name (two moved aside in one second), `…-2`, `-3`, …: nothing moved aside is ever
    /// replaced. Called holding the lock, so no other gymcard picks the same name meanwhile. Returns the
    /// warning.
    private static func moveAside(_ path: String, now: Date) throws(HistoryError) -> String {
        let stem = path + ".corrupt-" + compactUTC(now)
        var aside = stem
        var number = 1
        while [aside, aside + "-wal", aside + "-shm"].contains(where: { FileIdentity($0) != nil }) {
            number += 1
            aside = stem + "-\(number)"
        }
        guard rename(path, aside) == 0 else {
            throw .storage(
                path: path, reason: "it is damaged and could not be moved aside; move it away yourself")
        }
        for suffix in ["-wal", "-shm"] { rename(path + suffix, aside + suffix) }
        return "the history \(path) was damaged; it was moved to \(aside) and a new history was started"
    }

    /// The last component of a path.
    private static func fileName(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// `20261122T170000Z`.
    private static func compactUTC(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}

/// Which file a path names (device and inode): the same name may later name another file.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now, or `nil` when there is none.
    init?(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

import FoundationEssentials
import Glibc

/// What the history files look like from outside, told without opening SQLite: a summary of the
/// history kept elsewhere (the status bar's usual percent) is current while this stays the same.
///
/// Every change to the history is a write to its WAL file (or, after a checkpoint, to the database
/// file), and a write moves the file's modification time or size; a history moved aside and started
/// anew is another inode. The kernel stamps times to a clock tick (a few ms; a second or two on some
/// file systems), so a second write in the tick of the first may leave the version as it was: a version
/// is ``isSettled`` only when both files were last written well before the moment it was read.
public struct HistoryFileVersion: Sendable, Equatable {
    /// The files' device, inode, size and modification time, as one line of text.
    public var text: String
    /// Whether the last write is old enough (2 s) that any later one is sure to change ``text``.
    public var isSettled: Bool

    /// The version of the history at `path` (its database and WAL files), or `nil` when there is none.
    /// `realNow` is the system clock (never a test clock): the settling is about the kernel's stamps.
    public static func current(path: String, realNow: Date) -> HistoryFileVersion? {
        guard let database = FileStamp(path) else { return nil }
        let wal = FileStamp(path + "-wal")
        let newest = max(database.modified, wal?.modified ?? database.modified)
        return HistoryFileVersion(
            text: database.text + " wal " + (wal?.text ?? "none"),
            isSettled: newest < realNow.timeIntervalSince1970 - settlingSeconds)
    }

    /// How long after a write a version counts as settled: above the coarsest timestamps of common file
    /// systems (FAT's 2 s), and above a kernel tick with room to spare.
    static let settlingSeconds = 2.0

    /// One file's `stat`: device, inode, size and modification time. Not the change time: SQLite opened
    /// by root changes the owner of the WAL file to the database's (the same owner) at every opening,
    /// which moves the change time of a history that was only read.
    private struct FileStamp {
        var text: String
        var modified: Double

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            let nanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            text = "\(status.st_dev):\(status.st_ino):\(status.st_size):\(nanoseconds)"
            modified = Double(nanoseconds) / 1e9
        }
    }
}

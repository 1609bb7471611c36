import DynamicLoading
import FoundationEssentials

/// Why the history could not be read or written, worded for a person.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The disk (or quota) is full: the reading was not recorded.
    case full(path: String)
    /// Another gymcard held the database longer than the busy timeout.
    case busy(path: String)
    /// The file was made by a newer gymcard (a schema version this one does not know).
    case newerVersion(path: String, version: Int)
    /// Any other failure: permission, a damaged file that could not be moved aside.
    case storage(path: String, reason: String)
    /// libsqlite3 is not installed, or lacks a function (it is opened on the first history file).
    case libraryMissing(LoadingError)
    /// The file is damaged, found by a reader that does not repair it (`doctor`).
    case damaged(path: String)

    /// One line: what happened and what to do.
    public var description: String {
        switch self {
        case .full(let path): return "\(path): the disk is full; free some space and try again"
        case .busy(let path):
            return "\(path) is busy (another gymcard is writing to it); try again in a moment"
        case .newerVersion(let path, let version):
            return "\(path) has history format \(version), newer than this gymcard reads; update gymcard"
        case .storage(let path, let reason): return "\(path): \(reason)"
        case .damaged(let path): return "\(path) is damaged"
        case .libraryMissing(let error):
            return
                "the history needs the SQLite library (\(error)); "
                + error.library.installAdvice
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

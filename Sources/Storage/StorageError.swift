import FoundationEssentials
import Glibc

/// A file-system failure, with the path and what to do about it.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file or directory does not exist.
    case notFound(path: String)
    /// A directory stands where a file was expected.
    case isDirectory(path: String)
    /// A file stands where a directory was expected.
    case notDirectory(path: String)
    /// Permission denied or a read-only file system.
    case notPermitted(path: String)
    /// The disk (or quota) is full.
    case noSpace(path: String)
    /// A kind of file gymcard cannot use here (a socket as an output file), with what to do.
    case unusable(path: String, reason: String)
    /// Any other system error, with its `strerror` text.
    case system(path: String, operation: String, reason: String)

    /// Classifies an `errno` value for the path being worked on.
    public init(errno code: Int32, path: String, operation: String) {
        switch code {
        case ENOENT: self = .notFound(path: path)
        case EISDIR: self = .isDirectory(path: path)
        case ENOTDIR: self = .notDirectory(path: path)
        case EACCES, EPERM, EROFS: self = .notPermitted(path: path)
        case ENOSPC, EDQUOT: self = .noSpace(path: path)
        default: self = .system(path: path, operation: operation, reason: String(cString: strerror(code)))
        }
    }

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or directory"
        case .isDirectory(let path): return "\(path): is a directory; give a file name"
        case .notDirectory(let path): return "\(path): a part of this path is a file, not a directory"
        case .notPermitted(let path): return "\(path): permission denied (or a read-only file system)"
        case .noSpace(let path): return "\(path): the disk is full; free some space and try again"
        case .unusable(let path, let reason): return "\(path): \(reason)"
        case .system(let path, let operation, let reason): return "\(path): could not \(operation): \(reason)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

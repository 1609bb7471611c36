import FoundationEssentials
import GymcardCore
import History
import Occupancy
import Storage

/// `history import`: the readings of an export (CSV or JSON) added to a campus's history, all or none.
public enum HistoryImport {
    /// What an import added.
    public struct Outcome: Sendable, Equatable {
        /// Where the readings came from (`standard input` for `-`).
        public var source: String
        /// Readings in the file.
        public var readings: Int
        /// Readings new to the history.
        public var added: Int

        /// `imported 3 readings from export.csv (2 already in the history)`.
        public var summary: String {
            let duplicates = readings - added
            return "imported \(added) \(added == 1 ? "reading" : "readings") from \(source)"
                + (duplicates > 0 ? " (\(duplicates) already in the history)" : "")
        }
    }

    /// Why nothing was imported.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file is not there.
        case missing(String)
        /// It could not be read: what the system said.
        case unreadable(String)
        /// A line is not a reading: where and why.
        case malformed(source: String, reason: String)

        /// One line for stderr.
        public var description: String {
            switch self {
            case .missing(let file): "\(file): no such file or directory"
            case .unreadable(let reason): "cannot read \(reason)"
            case .malformed(let source, let reason): "\(source): \(reason); nothing was imported"
            }
        }
    }

    /// Reads `file` (`-`: standard input, up to 256 MiB) and adds its readings to the campus's history;
    /// the status bar's usual percent is then worked out again.
    public static func run(_ file: String, settings: OccupancySettings, context: Context) throws -> Outcome {
        let source = file == "-" ? "standard input" : file
        let bytes: [UInt8]
        do {
            let read =
                try file == "-"
                ? FileContents.readStandardInput(limitBytes: 1 << 28)
                : FileContents.read(file, limitBytes: 1 << 28)
            guard let read else { throw Problem.missing(file) }
            bytes = read
        } catch let error as StorageError { throw Problem.unreadable(error.description) }
        let readings: [HistoryReading]
        do { readings = try HistoryExchange.parse(bytes) } catch {
            throw Problem.malformed(source: source, reason: "\(error)")
        }
        let added = try HistoryFiles.openForWriting(context, campus: settings.campus).importReadings(readings)
        UsualNowFile.refresh(settings: settings, context: context)
        return Outcome(source: source, readings: readings.count, added: added)
    }
}

import Codabar
import Dispatch
import GymcardCore
import Storage
import Symbologies
import Symbols
import Synchronization

/// `render --batch`: one image per ID in a list, on every core, with flat memory however long the list.
public struct BatchRender: Sendable {
    /// The image format (`.png` or `.svg`).
    public var format: SymbolFile
    /// How the symbols are drawn.
    public var style: BarcodeStyle
    /// Whether the mod-16 check character is added.
    public var checkCharacter: Bool
    /// The symbology every ID is drawn in.
    public var symbology: Symbology

    /// Lines handed to the cores at a time: bounds memory however long the file is.
    public static let chunkSize = 256

    /// The line that is not text at which the batch stops, taking the file for a binary one (a photo
    /// given by mistake), unless more lines so far were text: a few are skipped, as a stray byte in a
    /// list of IDs may be.
    public static let binaryLineLimit = 3

    /// A batch in `format` and `style`.
    public init(
        format: SymbolFile, style: BarcodeStyle, checkCharacter: Bool, symbology: Symbology = .codabar
    ) {
        self.format = format
        self.style = style
        self.checkCharacter = checkCharacter
        self.symbology = symbology
    }

    /// What a batch says while it runs, in the order of the lines.
    public enum Event {
        /// A line's ID is not valid: skipped.
        case invalid(line: Int, reason: String)
        /// A line is not text (a NUL byte, bytes that are not UTF-8, or over 64 KiB): skipped.
        case notText(line: Int)
        /// So many lines are done.
        case progress(lines: Int)

        /// What to say of a skipped line of `source`, or `nil` for progress.
        public func message(source: String) -> String? {
            switch self {
            case .invalid(let line, let reason): "\(source):\(line): \(reason); line skipped"
            case .notText(let line):
                "\(source):\(line): not text (a NUL byte, bytes that are not UTF-8, or over 64 KiB); line skipped"
            case .progress: nil
            }
        }
    }

    /// Renders every ID in `lines` (blank lines and `#` comments skipped) into `destination`. Between
    /// chunks, `stopSignal` says whether a signal asked the batch to stop (its number, or 0).
    ///
    /// - Throws: ``BatchProblem``; also at the end when some lines failed.
    public func run(
        _ lines: LineReader, source: String, into destination: BatchDestination,
        stopSignal: @escaping @Sendable () -> Int32, warn: @escaping @Sendable (String) -> Void,
        event: (Event) -> Void
    ) throws(BatchProblem) {
        // Waiting for standard input that has not come (a pipe whose writer is slow): a signal's orderly
        // stop ends the wait, though its handler lets read(2) restart.
        lines.stopWaiting = { stopSignal() != 0 }
        var failedLines = 0
        var seenLines = 0
        var binaryLines = 0
        var textLines = 0
        var chunk: [(line: Int, id: String)] = []
        func flush() throws(BatchProblem) {
            let outcomes = renderConcurrently(
                chunk.map(\.id), into: destination, stopSignal: stopSignal, warn: warn)
            var firstWriteFailure: String?
            for (entry, outcome) in zip(chunk, outcomes) {
                switch outcome {
                case .written, .skipped: break
                case .invalid(let reason):
                    failedLines += 1
                    event(.invalid(line: entry.line, reason: reason))
                case .writeFailed(let reason): firstWriteFailure = firstWriteFailure ?? reason
                }
            }
            if let firstWriteFailure { throw .cannotWrite(firstWriteFailure, written: destination.summary) }
            let signal = stopSignal()
            if signal != 0 { throw .interrupted(signal: signal, written: destination.stoppedSummary) }
            seenLines += chunk.count
            chunk.removeAll(keepingCapacity: true)
            event(.progress(lines: seenLines))
        }
        while true {
            // IDs that trickle in on a pipe held open are drawn before the batch waits for more, so each
            // is written when it comes, and a signal during the wait keeps them.
            if !chunk.isEmpty, !lines.hasLineReady { try flush() }
            guard let line = lines.next() else { break }
            if !lines.lineIsText {
                // Earlier lines are reported first, in order.
                try flush()
                binaryLines += 1
                seenLines += 1
                failedLines += 1
                // A list with a few stray lines (a Latin-1 comment) is still a list: the batch stops only
                // when the lines that are not text outnumber those that are.
                guard binaryLines < Self.binaryLineLimit || binaryLines <= textLines else {
                    throw .binary(source: source, line: lines.lineNumber, written: destination.summary)
                }
                event(.notText(line: lines.lineNumber))
                continue
            }
            textLines += 1
            let trimmed = line.trimmingWhitespace()
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            chunk.append((lines.lineNumber, trimmed))
            if chunk.count == Self.chunkSize { try flush() }
        }
        try flush()
        guard seenLines > 0 else { throw .noIDs(source: source) }
        guard failedLines == 0 else {
            throw .failedLines(failedLines, of: seenLines, written: destination.summary)
        }
    }

    /// How many lines of `lines` hold an ID (for a progress total).
    public static func countIDs(_ lines: LineReader) -> Int {
        lines.reduce(0) { count, line in
            let trimmed = line.trimmingWhitespace()
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? count : count + 1
        }
    }

    private enum Outcome: Sendable {
        case written
        /// Not attempted: a signal asked the batch to stop.
        case skipped
        case invalid(String)
        case writeFailed(String)
    }

    private func renderConcurrently(
        _ ids: [String], into destination: BatchDestination, stopSignal: @Sendable () -> Int32,
        warn: @Sendable (String) -> Void
    ) -> [Outcome] {
        let results = Mutex([Outcome](repeating: .written, count: ids.count))
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            guard stopSignal() == 0 else {
                results.withLock { $0[index] = .skipped }
                return
            }
            let outcome = render(ids[index], into: destination, warn: warn)
            results.withLock { $0[index] = outcome }
        }
        return results.withLock { $0 }
    }

    private func render(_ id: String, into destination: BatchDestination, warn: (String) -> Void) -> Outcome {
        let content: BarcodeContent
        do {
            content = try CardSymbol.content(
                for: id, symbology: symbology, checkCharacter: checkCharacter, warn: warn)
        } catch {
            return .invalid(error.description)
        }
        let name = SymbolFileName.name(for: content, extension: format.rawValue)
        // A 2D text of hundreds of characters makes a name longer than file systems allow (255 bytes).
        guard name.utf8.count <= 255 else { return .invalid("the ID is too long for a file name") }
        let bytes: [UInt8]
        do { bytes = try format.bytes(of: content, style: style) } catch {
            if case .cannotDraw(let reason) = error { return .invalid(reason) }
            return .writeFailed("\(error)")
        }
        do {
            try destination.write(bytes, named: name)
            return .written
        } catch {
            return .writeFailed("\(error)")
        }
    }
}

/// Why a batch stopped or failed; `written` says what it wrote (each file complete).
public enum BatchProblem: Error, CustomStringConvertible {
    /// The list of IDs cannot be read: why.
    case unreadableList(String)
    /// The output path exists and is not a directory.
    case notADirectory(String)
    /// The output directory could not be made.
    case cannotCreateDirectory(StorageError)
    /// A file could not be written.
    case cannotWrite(String, written: String)
    /// A signal stopped the batch between chunks.
    case interrupted(signal: Int32, written: String)
    /// The list looks like a binary file: the line where that became clear.
    case binary(source: String, line: Int, written: String)
    /// The list has no IDs.
    case noIDs(source: String)
    /// Some lines failed (each was reported as it came).
    case failedLines(Int, of: Int, written: String)

    /// What happened.
    public var description: String {
        switch self {
        case .unreadableList(let reason): "cannot read the batch file: \(reason)"
        case .notADirectory(let path): "\(path) exists and is not a directory"
        case .cannotCreateDirectory(let error): "cannot create the output directory: \(error)"
        case .cannotWrite(let reason, let written): "cannot write \(reason); stopped with \(written)"
        case .interrupted(_, let written): "interrupted; stopped with \(written)"
        case .binary(let source, let line, let written):
            "\(source):\(line): not text either; \(source) looks like a binary file, not a list of IDs: "
                + "stopped with \(written)"
        case .noIDs(let source): "\(source) has no IDs (blank lines and # comments are skipped)"
        case .failedLines(let count, let seen, let written): "\(count) of \(seen) lines failed; \(written)"
        }
    }
}

extension String {
    /// The string without leading and trailing white space.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

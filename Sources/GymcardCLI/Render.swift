import ArgumentParser
import Codabar
import Dispatch
import Glibc
import GymcardCore
import Imaging
import Storage
import Symbols
import Synchronization

/// `gymcard render --batch`: one image per ID in a file, on every core, with flat memory.
struct Render: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render many IDs to image files.",
        discussion: """
            <file> holds one ID per line (- reads standard input); blank lines and lines starting with # are skipped. Each ID is \
            written to <dir> as its normalized form plus the extension, e.g. A123456789B.png; in names, \
            / is written _, : is written = and $ is written S. IDs that normalize to the same symbol share \
            one file. A bad line is reported with its line number and skipped; the exit status is \
            then 65. A line that is not text (a NUL byte, bytes that are not UTF-8, or over 64 KiB) is \
            skipped too, and the third one stops the batch with one message: the file is taken for a \
            binary one (exit status 65). <dir> is created when missing; an existing one is written into and otherwise left as it \
            is. Each file appears complete or not at all, so Ctrl-C stops the batch with only complete \
            files written (exit status 130).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, svg
    }

    @Option(name: .long, help: ArgumentHelp("The file of IDs, one per line.", valueName: "file"))
    var batch: String

    @Option(
        name: [.short, .long], help: ArgumentHelp("The directory to write the images to.", valueName: "dir"))
    var out: String

    @Option(name: .long, help: "The image format: png or svg.")
    var format: Format = .png

    @OptionGroup var symbolOptions: SymbolOptions

    /// Lines handed to the cores at a time: bounds memory however long the file is.
    static let chunkSize = 256

    /// The line that is not text at which the batch stops, taking the file for a binary one (a photo
    /// given by mistake), unless more lines so far were text: a few are skipped, as a stray byte in a
    /// list of IDs may be.
    static let binaryLineLimit = 3

    func run(in context: Context) throws {
        let style = try symbolOptions.style()
        let reader: LineReader
        do { reader = batch == "-" ? try LineReader.standardInput() : try LineReader(path: batch) } catch {
            throw Failure("cannot read the batch file: \(error.description)", status: .noInput)
        }
        let source = batch == "-" ? "standard input" : batch
        let showsProgress = Terminal.standardError.isTerminal
        // Standard input can be read only once: progress then counts without a total.
        let total = showsProgress && batch != "-" ? try countIDs() : nil
        let destination = try BatchDestination(directory: out)
        // Ctrl-C or SIGTERM: finish the files being written, then stop with a report.
        Interrupt.stopBetweenSteps()
        defer { destination.finish() }

        var failedLines: [Int] = []
        var seenLines = 0
        var binaryLines = 0
        var textLines = 0
        var chunk: [(line: Int, id: String)] = []
        func flush() throws {
            let outcomes = renderConcurrently(chunk, style: style, into: destination)
            var firstWriteFailure: String?
            for (entry, outcome) in zip(chunk, outcomes) {
                switch outcome {
                case .written, .skipped: break
                case .invalid(let reason):
                    failedLines.append(entry.line)
                    Terminal.standardError.say("\(source):\(entry.line): \(reason); line skipped")
                case .writeFailed(let reason): firstWriteFailure = firstWriteFailure ?? reason
                }
            }
            if showsProgress, firstWriteFailure != nil || Interrupt.pendingSignal != 0 {
                Terminal.standardError.write("\n")
            }
            if let firstWriteFailure {
                throw Failure(
                    "cannot write \(firstWriteFailure); stopped with \(filesWritten(destination))",
                    status: .ioError)
            }
            if Interrupt.pendingSignal != 0 {
                throw Failure(
                    "interrupted; stopped with \(filesWritten(destination)), each one complete",
                    status: ExitStatus(rawValue: Interrupt.status(after: Interrupt.pendingSignal))
                        ?? .interrupted)
            }
            seenLines += chunk.count
            chunk.removeAll(keepingCapacity: true)
            if showsProgress {
                Terminal.standardError.write("\rrendered \(seenLines)\(total.map { " of \($0)" } ?? "") IDs")
            }
        }
        for line in reader {
            if !reader.lineIsText {
                // Earlier lines are reported first, in order.
                try flush()
                binaryLines += 1
                seenLines += 1
                failedLines.append(reader.lineNumber)
                // A list with a few stray lines (a Latin-1 comment) is still a list: the batch stops only
                // when the lines that are not text outnumber those that are.
                guard binaryLines < Self.binaryLineLimit || binaryLines <= textLines else {
                    if showsProgress { Terminal.standardError.write("\n") }
                    throw Failure(
                        "\(source):\(reader.lineNumber): not text either; \(source) looks like a binary file, "
                            + "not a list of IDs: stopped with \(filesWritten(destination))",
                        status: .dataError)
                }
                Terminal.standardError.say(
                    "\(source):\(reader.lineNumber): not text (a NUL byte, bytes that are not UTF-8, or over 64 KiB); "
                        + "line skipped")
                continue
            }
            textLines += 1
            let trimmed = line.trimmingWhitespace()
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            chunk.append((reader.lineNumber, trimmed))
            if chunk.count == Self.chunkSize { try flush() }
        }
        try flush()
        if showsProgress { Terminal.standardError.write("\n") }

        guard seenLines > 0 else {
            throw Failure("\(source) has no IDs (blank lines and # comments are skipped)", status: .dataError)
        }
        guard failedLines.isEmpty else {
            throw Failure(
                "\(failedLines.count) of \(seenLines) lines failed; \(filesWritten(destination))",
                status: .dataError)
        }
    }

    /// "1 file written to DIR", "4 files written to DIR" (distinct files, however many IDs shared them),
    /// or "no files written".
    private func filesWritten(_ destination: BatchDestination) -> String {
        let count = destination.fileCount
        return count == 0 ? "no files written" : "\(count) \(count == 1 ? "file" : "files") written to \(out)"
    }

    enum Outcome: Sendable {
        case written
        /// Not attempted: a signal asked the batch to stop.
        case skipped
        case invalid(String)
        case writeFailed(String)
    }

    private func renderConcurrently(
        _ entries: [(line: Int, id: String)], style: BarcodeStyle, into destination: BatchDestination
    ) -> [Outcome] {
        let results = Mutex([Outcome](repeating: .written, count: entries.count))
        let ids = entries.map(\.id)
        let format = format
        let options = symbolOptions
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            guard Interrupt.pendingSignal == 0 else {
                results.withLock { $0[index] = .skipped }
                return
            }
            let outcome = Self.render(
                ids[index], options: options, style: style, format: format, destination: destination)
            results.withLock { $0[index] = outcome }
        }
        return results.withLock { $0 }
    }

    private static func render(
        _ id: String, options: SymbolOptions, style: BarcodeStyle, format: Format,
        destination: BatchDestination
    ) -> Outcome {
        let symbol: CodabarSymbol
        do { symbol = try options.symbol(for: id) } catch let failure as Failure {
            return .invalid(failure.message)
        } catch { return .invalid("\(error)") }
        do {
            let bytes: [UInt8]
            switch format {
            case .png: bytes = try PNGCodec.encode(CodabarRaster.image(of: symbol, style: style))
            case .svg: bytes = Array(SVGDocument.codabar(symbol, style: style).utf8)
            }
            try destination.write(bytes, named: SymbolFileName.name(for: symbol, extension: format.rawValue))
            return .written
        } catch {
            return .writeFailed("\(error)")
        }
    }

    private func countIDs() throws -> Int {
        guard let reader = try? LineReader(path: batch) else { return 0 }
        return reader.reduce(0) { count, line in
            let trimmed = line.trimmingWhitespace()
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? count : count + 1
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

import DynamicLoading
import GymcardCore
import Scanner
import Symbologies
import TerminalText

extension PhotoScan {
    /// `scan` over several photos, in order: each is scanned as ``scan(_:name:with:all:)`` scans it and its
    /// lines go to `print` as `output` words them (`-` is standard input, called so in messages). `save`
    /// gets the ID of each photo that reads until one is stored without an error (`scan --save` stores
    /// the first). `failed` gets each photo whose scan or storing failed, by its name in messages, and
    /// throws to stop at it; `several` gets a photo (by its name) whose first ID was printed though it holds
    /// others, with every ID it holds.
    ///
    /// A photo with several different IDs is never chosen from in silence (ARCHITECTURE §13, "Two cards
    /// in one photo"): the line printed is the first, and `several` is to tell that there are others (and
    /// how to list them). A photo to be stored is looked at whole (every stage, as `--all`), and when it holds several
    /// IDs `choose` picks one (it asks on a terminal); when it returns `nil` nothing is stored by the run
    /// (no later photo either), every ID is printed, and the photo fails with ``SeveralCards``.
    ///
    /// - Throws: ``PhotoScanProblem`` before any photo is read when libzbar is not installed (every photo
    ///   would read as "no barcode found"); what `failed` throws.
    public static func scanEach(
        _ paths: [String], with scanner: BarcodeScanner, output: Output,
        save: ((BarcodeContent) throws -> Void)?,
        choose: ([BarcodeContent]) throws -> BarcodeContent? = { _ in nil },
        emit: (String) -> Void, several: (_ name: String, _ cards: [BarcodeContent]) -> Void = { _, _ in },
        failed: (_ name: String, _ error: any Error) throws -> Void
    ) throws {
        if let error = ZBarReader.loadingError {
            throw PhotoScanProblem(
                message: error.description
                    + ", so photos cannot be scanned; \(error.library.installAdvice)",
                kind: .decoderMissing)
        }
        var saved = save == nil
        for path in paths {
            let name = path == "-" ? "standard input" : path
            do {
                let photo: Reads
                do { photo = try scan(path, name: name, with: scanner, all: output.all || !saved) } catch {
                    for line in output.lines(others: error.others, of: name, milliseconds: error.milliseconds)
                    {
                        emit(line)
                    }
                    throw error
                }
                let cards = photo.reads.map(\.content)
                guard !saved, let save else {
                    for line in output.lines(photo, of: name) { emit(line) }
                    if cards.count > 1, !output.all { several(name, cards) }
                    continue
                }
                var chosen = cards[0]
                if cards.count > 1 {
                    guard let picked = try choose(cards) else {
                        for line in output.lines(photo, of: name, every: true) { emit(line) }
                        // Nothing is stored by this run: not this photo's ID, nor a later photo's in its
                        // place (the line says nothing was stored, and a script takes 64 for that).
                        saved = true
                        throw SeveralCards(name: name, cards: cards)
                    }
                    chosen = picked
                }
                for line in output.lines(photo, of: name, only: chosen) { emit(line) }
                try save(chosen)
                saved = true
            } catch {
                try failed(name, error)
            }
        }
    }

}

/// `scan --save` of a photo that holds several different IDs, with no one to ask which: nothing stored.
public struct SeveralCards: Error, CustomStringConvertible {
    /// The photo, as messages call it.
    public var name: String
    /// The IDs it holds, in the order printed.
    public var cards: [BarcodeContent]

    /// What happened (never an ID: they were printed on standard output); what to do is the CLI's.
    public var description: String {
        "\(name.terminalSafe) holds \(cards.count) different IDs (listed above: "
            + cards.map(\.symbology.displayName).joined(separator: ", ") + "); nothing was stored"
    }
}

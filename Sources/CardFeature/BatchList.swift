import GymcardCore
import Storage
import Symbologies
import Symbols

/// The list of IDs `render --batch` reads: a file, or `-` for standard input.
public struct BatchList {
    /// Its lines.
    public let lines: LineReader
    /// What messages call it (`standard input` for `-`).
    public let source: String
    /// How many IDs it holds, when counted (never for standard input, which can be read only once).
    public let idCount: Int?

    /// Opens the list at `path`; with `counting`, a file is first read through once to count its IDs (for
    /// the progress line).
    public init(_ path: String, counting: Bool) throws(BatchProblem) {
        do { lines = path == "-" ? try LineReader.standardInput() : try LineReader(path: path) } catch {
            throw .unreadableList(error.description)
        }
        source = path == "-" ? "standard input" : path
        idCount = counting && path != "-" ? (try? LineReader(path: path)).map(BatchRender.countIDs) : nil
    }
}

extension CardDrawing {
    /// Refuses, before anything is drawn, a symbology whose drawer is not installed (libzint draws every
    /// symbology but Codabar).
    public static func requireDrawer(for symbology: Symbology) throws(SymbolFileProblem) {
        if symbology != .codabar, let problem = ModuleMatrix.zintProblem {
            throw .drawerMissing(problem.description)
        }
    }
}

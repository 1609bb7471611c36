import Codabar
import Symbologies

/// A symbol as modules: one row of bars and spaces for a linear symbology, rows of square modules for a
/// 2D one, with the quiet zone its standard asks for. What every drawing (PNG, SVG, terminal) starts from.
///
/// Codabar at the default 3:1 ratio is a matrix too (a narrow element is one module, a wide one three);
/// other symbologies are encoded by libzint (``init(encoding:)``).
public struct ModuleMatrix: Sendable, Equatable {
    /// The light margin around the symbol, in modules.
    public struct QuietZone: Sendable, Equatable {
        /// Modules left of the symbol.
        public var left: Int
        /// Modules right of the symbol.
        public var right: Int
        /// Modules above and below the symbol (0 for linear symbols, whose height is free).
        public var vertical: Int

        /// A quiet zone.
        public init(left: Int, right: Int, vertical: Int) {
            self.left = left
            self.right = right
            self.vertical = vertical
        }
    }

    /// The symbology.
    public let symbology: Symbology
    /// Modules per row, quiet zone excluded.
    public let columns: Int
    /// How many modules tall each row is (PDF417's rows are 3 modules tall; one row of 1 for a linear symbol).
    public let rowHeights: [Int]
    /// The quiet zone.
    public let quietZone: QuietZone
    private let modules: [Bool]

    /// Rows of modules.
    public var rows: Int { rowHeights.count }
    /// Whether this is one row of bars, drawn as tall as the style asks.
    public var isLinear: Bool { !symbology.isTwoDimensional }
    /// Modules wide, quiet zone included.
    public var totalColumns: Int { quietZone.left + columns + quietZone.right }
    /// Modules tall of a 2D symbol, quiet zone included (a linear symbol's height is the style's).
    public var totalModuleRows: Int { rowHeights.reduce(0, +) + 2 * quietZone.vertical }

    /// A matrix from its parts: `modules` holds `rowHeights.count` rows of `columns` modules, dark = `true`.
    public init(
        symbology: Symbology, columns: Int, rowHeights: [Int], quietZone: QuietZone, modules: [Bool]
    ) {
        precondition(modules.count == columns * rowHeights.count, "one module per column and row")
        self.symbology = symbology
        self.columns = columns
        self.rowHeights = rowHeights
        self.quietZone = quietZone
        self.modules = modules
    }

    /// The matrix as a screen shows it: a 2D symbol with a light margin of at least `minimum` modules all
    /// round. A terminal's background may be dark, and Aztec's standard asks for no quiet zone (Data
    /// Matrix's for one module), trusting white paper: drawn on a dark terminal as they are, their outer
    /// modules ran into the background. A linear symbol is unchanged.
    public func onScreen(margin minimum: Int = 2) -> ModuleMatrix {
        guard !isLinear else { return self }
        return ModuleMatrix(
            symbology: symbology, columns: columns, rowHeights: rowHeights,
            quietZone: QuietZone(
                left: Swift.max(minimum, quietZone.left), right: Swift.max(minimum, quietZone.right),
                vertical: Swift.max(minimum, quietZone.vertical)),
            modules: modules)
    }

    /// Whether the module at a column and row (quiet zone excluded) is dark.
    public func isDark(column: Int, row: Int) -> Bool { modules[row * columns + column] }

    /// The runs of dark modules, one rectangle each in whole modules of the drawing (quiet zone
    /// included; a PDF417 row spans its height in module rows): what PNG, SVG and the terminal fill.
    public var darkRuns: [(column: Int, moduleRow: Int, width: Int, height: Int)] {
        var runs: [(column: Int, moduleRow: Int, width: Int, height: Int)] = []
        var top = quietZone.vertical
        for row in 0..<rows {
            var column = 0
            while column < columns {
                guard isDark(column: column, row: row) else {
                    column += 1
                    continue
                }
                var end = column
                while end < columns, isDark(column: end, row: row) { end += 1 }
                runs.append((quietZone.left + column, top, end - column, rowHeights[row]))
                column = end
            }
            top += rowHeights[row]
        }
        return runs
    }

    /// The modules of one row, quiet zone excluded.
    public func row(_ row: Int) -> ArraySlice<Bool> { modules[(row * columns)..<((row + 1) * columns)] }

    /// A linear symbol's one row at `moduleWidth` pixels per module, quiet zones included: what the
    /// raster and the terminal draw.
    public func pixelRow(moduleWidth: Int) -> [Bool] {
        var pixels = [Bool](repeating: false, count: quietZone.left * moduleWidth)
        pixels.reserveCapacity(totalColumns * moduleWidth)
        for isDark in row(0) { pixels.append(contentsOf: repeatElement(isDark, count: moduleWidth)) }
        pixels.append(contentsOf: repeatElement(false, count: quietZone.right * moduleWidth))
        return pixels
    }

    /// Whether the module at a column and module row of the whole drawing (quiet zone included; a row of
    /// PDF417 spans several module rows) is dark. For 2D symbols.
    public func isDarkInDrawing(column: Int, moduleRow: Int) -> Bool {
        let x = column - quietZone.left
        var y = moduleRow - quietZone.vertical
        guard x >= 0, x < columns, y >= 0 else { return false }
        for (row, height) in rowHeights.enumerated() {
            if y < height { return isDark(column: x, row: row) }
            y -= height
        }
        return false
    }

    /// Codabar at the 3:1 ratio, with its ten-module quiet zones.
    public init(codabar symbol: CodabarSymbol) {
        let modules = CodabarLayout.standard.row(of: symbol, narrowWidth: 1, includingQuietZones: false)
        let quiet = CodabarLayout.quietZoneNarrowWidths
        self.init(
            symbology: .codabar, columns: modules.count, rowHeights: [1],
            quietZone: QuietZone(left: quiet, right: quiet, vertical: 0), modules: modules)
    }

    /// The quiet zone each standard asks for, in modules (the figures zint 2.11 uses, with its sources):
    /// Code 39 ISO/IEC 16388 §4.4, Code 93 ANSI/AIM BC5 §2.4, Code 128 ISO/IEC 15417 §4.4.2,
    /// Interleaved 2 of 5 ISO/IEC 16390 §4.4, Codabar BS EN 798 §4.4.1: 10 each side. EAN/UPC, GS1 General
    /// Specifications §5.2.3.4: EAN-13 11 left and 7 right, EAN-8 7 and 7, UPC-A 9 and 9, UPC-E 9 and 7.
    /// QR ISO/IEC 18004 §9.1: 4 all round; PDF417 ISO/IEC 15438 §5.8.3: 2; Data Matrix ISO/IEC 16022
    /// §7.1: 1; Aztec ISO/IEC 24778 §4.1: none required.
    public static func standardQuietZone(of symbology: Symbology) -> QuietZone {
        switch symbology {
        case .codabar, .code39, .code93, .code128, .itf: return QuietZone(left: 10, right: 10, vertical: 0)
        case .ean13: return QuietZone(left: 11, right: 7, vertical: 0)
        case .ean8: return QuietZone(left: 7, right: 7, vertical: 0)
        case .upca: return QuietZone(left: 9, right: 9, vertical: 0)
        case .upce: return QuietZone(left: 9, right: 7, vertical: 0)
        case .qr: return QuietZone(left: 4, right: 4, vertical: 4)
        case .pdf417: return QuietZone(left: 2, right: 2, vertical: 2)
        case .datamatrix: return QuietZone(left: 1, right: 1, vertical: 1)
        case .aztec: return QuietZone(left: 0, right: 0, vertical: 0)
        }
    }
}

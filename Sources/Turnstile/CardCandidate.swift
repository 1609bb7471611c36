import Codabar
import Imaging
import Symbols
import TerminalGraphics
import TerminalText

/// A drawing as fitting sees it: one row of bars (`rowAt(n)` at n pixels, or half cells, per narrow
/// module), or a grid of modules.
enum SymbolShape {
    /// A linear symbol.
    case bars((Int) -> [Bool])
    /// A 2D symbol, quiet zone included.
    case grid(ModuleMatrix)
}

extension TurnstileContent.Drawing {
    var shape: SymbolShape {
        switch self {
        case .codabar(let symbol, let layout): .bars { layout.row(of: symbol, narrowWidth: $0) }
        case .matrix(let matrix) where matrix.isLinear: .bars { matrix.pixelRow(moduleWidth: $0) }
        case .matrix(let matrix): .grid(matrix)
        case .qr(let code): .grid(code.matrix)
        }
    }
}

/// One form of the card tried on a screen: across, turned, or the companion QR code, and what each takes
/// in block characters and in pixels.
struct CardCandidate {
    let form: CardForm
    let shape: SymbolShape

    /// The forms to try, in order: across; turned (not a square symbol, which turning does not narrow);
    /// the QR code when there is one and the drawing is not a QR code already.
    static func all(for drawing: TurnstileContent.Drawing, qrCode: QRSymbol?) -> [CardCandidate] {
        let shape = drawing.shape
        var candidates = [CardCandidate(form: .across, shape: shape)]
        var isSquare = false
        if case .grid(let matrix) = shape { isSquare = matrix.totalColumns == matrix.totalModuleRows }
        if !isSquare { candidates.append(CardCandidate(form: .turned, shape: shape)) }
        var isQRCode = false
        if case .qr = drawing { isQRCode = true }
        if let qrCode, !isQRCode {
            candidates.append(CardCandidate(form: .qrCode, shape: .grid(qrCode.matrix)))
        }
        return candidates
    }

    private var isTurned: Bool { form == .turned }

    // MARK: Block characters

    /// Columns and rows the smallest block drawing takes: half a cell per module along a row of bars
    /// (and a bar row between two blank lines across, a bar of ``TerminalArt/minimumTurnedBarColumns``
    /// between two light columns turned); a grid one cell wide and half a cell tall per module.
    var blockNeed: (columns: Int, rows: Int) {
        switch shape {
        case .bars(let rowAt):
            let halves = (rowAt(1).count + 1) / 2
            return isTurned ? (TerminalArt.minimumTurnedBarColumns + 2, halves) : (halves, 3)
        case .grid(let matrix):
            let (width, height) = (matrix.totalColumns, matrix.totalModuleRows)
            return isTurned ? (height, (width + 1) / 2) : (width, (height + 1) / 2)
        }
    }

    /// The block drawing as large as `columns` × `rows` allow (`nil`: no limit, the smallest size for a
    /// row of bars along it, bars as tall as ``TerminalArt`` makes them across).
    func blockLines(palette: TerminalArt.Palette, columns: Int?, rows: Int?) throws(SymbolError) -> [String] {
        switch (shape, isTurned) {
        case (.bars(let rowAt), false):
            var barRows: Int?
            if let rows {
                let smallest = try TerminalArt.bars(
                    palette: palette, availableColumns: columns, barRows: 1, rowAt: rowAt)
                let width = smallest.first.map(\.visibleWidth) ?? 0
                // Cells are about twice as tall as wide: a sixth of the width in rows is a third in height.
                barRows = max(1, min(rows - 2, max(5, width / 6)))
            }
            return try TerminalArt.bars(
                palette: palette, availableColumns: columns, barRows: barRows, rowAt: rowAt)
        case (.bars(let rowAt), true):
            return TerminalArt.turnedBars(
                palette: palette, availableColumns: columns, availableRows: rows, rowAt: rowAt)
        case (.grid(let matrix), false):
            return try TerminalArt.matrix(
                matrix, palette: palette, availableColumns: columns, availableRows: rows)
        case (.grid(let matrix), true):
            return try TerminalArt.turnedGrid(
                matrix, palette: palette, availableColumns: columns, availableRows: rows)
        }
    }

    // MARK: Pixels

    /// Most pixels one Codabar narrow bar or QR module takes (as in image files).
    static let maximumModulePixels = BarcodeStyle.narrowBarWidths.upperBound

    /// Cells the smallest bitmap takes (one pixel per module), a column of margin each side.
    func pixelNeed(cell: PixelSize) -> (columns: Int, rows: Int) {
        func cells(_ pixels: Int, _ size: Int) -> Int { (pixels + size - 1) / size }
        switch shape {
        case .bars(let rowAt):
            let length = rowAt(1).count
            return isTurned ? (3, cells(length, cell.height)) : (cells(length, cell.width) + 2, 1)
        case .grid(let matrix):
            let (width, height) =
                isTurned
                ? (matrix.totalModuleRows, matrix.totalColumns)
                : (matrix.totalColumns, matrix.totalModuleRows)
            return (cells(width, cell.width) + 2, cells(height, cell.height))
        }
    }

    /// The bitmap at the most whole pixels per module that fit `width` × `height` pixels, and that number;
    /// `nil` when even one pixel per module does not fit. A row of bars is a third as tall as it is long
    /// (at least five modules), as far as the space allows; `cell` is the least it may be across.
    func bitmap(width: Int, height: Int, cell: PixelSize) -> (image: BitImage, module: Int)? {
        switch shape {
        case .bars(let rowAt):
            // Along the bars' row: the width across, the height turned.
            let (along, crosswise, leastCrosswise) =
                isTurned
                ? (height, width, cell.width) : (width, height, cell.height)
            guard rowAt(1).count <= along, crosswise >= leastCrosswise else { return nil }
            var narrow = 1
            while narrow < Self.maximumModulePixels, rowAt(narrow + 1).count <= along { narrow += 1 }
            let row = rowAt(narrow)
            let barLength = max(min(crosswise, row.count / 3), min(crosswise, 5 * narrow))
            let image =
                isTurned ? Self.turnedBars(row, width: barLength) : CodabarRaster.bars(row, height: barLength)
            return (image, narrow)
        case .grid(let matrix):
            let (columns, rows) =
                isTurned
                ? (matrix.totalModuleRows, matrix.totalColumns)
                : (matrix.totalColumns, matrix.totalModuleRows)
            let module = min(width / columns, height / rows, Self.maximumModulePixels)
            guard module >= 1 else { return nil }
            let image = MatrixRaster.image(of: matrix, moduleSize: module)
            return (isTurned ? Self.turnedClockwise(image) : image, module)
        }
    }

    /// A row of bars turned a quarter clockwise: each module a row of pixels, `width` long.
    private static func turnedBars(_ row: [Bool], width: Int) -> BitImage {
        var image = BitImage(width: width, height: row.count)
        var start: Int?
        // One fill per bar.
        for y in 0...row.count {
            let isDark = y < row.count && row[y]
            if isDark, start == nil { start = y }
            if !isDark, let top = start {
                image.fill(x: 0, y: top, width: width, height: y - top)
                start = nil
            }
        }
        return image
    }

    /// An image turned a quarter clockwise: its left column becomes the top row.
    private static func turnedClockwise(_ image: BitImage) -> BitImage {
        var turned = BitImage(width: image.height, height: image.width)
        for y in 0..<turned.height {
            for x in 0..<turned.width where image[y, image.height - 1 - x] { turned[x, y] = true }
        }
        return turned
    }
}

import Codabar
import Imaging
import Symbols
import TerminalGraphics
import TerminalText

/// How the symbol reaches the screen.
public enum TurnstileRenderer: String, Sendable, CaseIterable {
    /// kitty's graphics protocol: a PNG at its own pixel size.
    case kitty
    /// DEC sixel graphics.
    case sixel
    /// iTerm2's inline images.
    case iterm
    /// Unicode block characters in black and white (every terminal).
    case blocks

    /// Whether the renderer sends a bitmap, and so needs the cell size in pixels.
    public var drawsPixels: Bool { self != .blocks }
}

/// What the turnstile screen shows.
public struct TurnstileContent: Sendable {
    /// What is drawn.
    public enum Drawing: Sendable {
        /// A Codabar symbol in a layout (wide:narrow ratio).
        case codabar(CodabarSymbol, CodabarLayout)
        /// A QR symbol.
        case qr(QRSymbol)
        /// Any symbol as modules (every symbology; see ``ModuleMatrix/init(encoding:)``).
        case matrix(ModuleMatrix)
    }

    /// The symbol.
    public var drawing: Drawing
    /// The ID as people read it (`9051-23456`).
    public var caption: String
    /// The card's label, when it has one.
    public var label: String?
    /// The last line: how to close the view.
    public var hint: String

    /// Content for the screen.
    public init(drawing: Drawing, caption: String, label: String?, hint: String) {
        self.drawing = drawing
        self.caption = caption
        self.label = label
        self.hint = hint
    }
}

/// The terminal's size, and its cells' size in pixels when known.
public struct ScreenGeometry: Equatable, Sendable {
    /// Columns of text.
    public var columns: Int
    /// Rows of text.
    public var rows: Int
    /// One cell in pixels (`ws_xpixel / ws_col`, or `CSI 14 t` divided by the cells).
    public var cellPixels: PixelSize?

    /// A geometry.
    public init(columns: Int, rows: Int, cellPixels: PixelSize?) {
        self.columns = columns
        self.rows = rows
        self.cellPixels = cellPixels
    }
}

/// One full screen for the turnstile: the largest drawing that fits, centred, with the ID, the label and
/// a hint underneath. Bitmaps are sent at their exact pixel size with a whole number of pixels per module,
/// so the terminal never scales them.
public enum TurnstileFrame {
    /// Rows kept free around the drawing: one above, a blank, the ID and the label below, the hint at the
    /// bottom.
    static let reservedRows = 5

    /// Most pixels one Codabar narrow bar or QR module takes (as in image files).
    static let maximumModulePixels = BarcodeStyle.narrowBarWidths.upperBound

    /// The bitmap a pixel renderer sends for `content` on a screen of `geometry`, or `nil` when the cell
    /// size is unknown. `maximumSize` bounds it (xterm draws sixel images up to 1000×1000 by default).
    public static func bitmap(
        for drawing: TurnstileContent.Drawing, geometry: ScreenGeometry, maximumSize: PixelSize? = nil
    ) throws(SymbolError) -> BitImage? {
        guard let cell = geometry.cellPixels else { return nil }
        var availableWidth = (geometry.columns - 2) * cell.width
        var availableHeight = (geometry.rows - reservedRows) * cell.height
        if let maximumSize {
            availableWidth = min(availableWidth, maximumSize.width)
            availableHeight = min(availableHeight, maximumSize.height)
        }
        switch drawing {
        case .codabar(let symbol, let layout):
            return try linearBitmap(
                availableWidth: availableWidth, availableHeight: availableHeight, cell: cell,
                geometry: geometry,
                rowAt: { layout.row(of: symbol, narrowWidth: $0) })
        case .matrix(let matrix) where matrix.isLinear:
            return try linearBitmap(
                availableWidth: availableWidth, availableHeight: availableHeight, cell: cell,
                geometry: geometry,
                rowAt: { matrix.pixelRow(moduleWidth: $0) })
        case .qr(let code):
            return try gridBitmap(
                code.matrix, availableWidth: availableWidth, availableHeight: availableHeight, cell: cell,
                geometry: geometry)
        case .matrix(let matrix):
            return try gridBitmap(
                matrix, availableWidth: availableWidth, availableHeight: availableHeight, cell: cell,
                geometry: geometry)
        }
    }

    /// One row of bars at `rowAt(n)` pixels per module, the largest n that fits.
    private static func linearBitmap(
        availableWidth: Int, availableHeight: Int, cell: PixelSize, geometry: ScreenGeometry,
        rowAt: (Int) -> [Bool]
    ) throws(SymbolError) -> BitImage {
        let smallest = rowAt(1).count
        guard smallest <= availableWidth, availableHeight >= cell.height else {
            throw .terminalTooNarrow(
                requiredColumns: (smallest + cell.width - 1) / cell.width + 2,
                availableColumns: geometry.columns)
        }
        var narrow = 1
        while narrow < maximumModulePixels, rowAt(narrow + 1).count <= availableWidth {
            narrow += 1
        }
        let row = rowAt(narrow)
        // A third of the width tall, like a printed card's barcode, as far as the screen allows.
        let height = max(min(availableHeight, row.count / 3), min(availableHeight, 5 * narrow))
        return CodabarRaster.bars(row, height: height)
    }

    /// A 2D symbol at the most whole pixels per module that fit.
    private static func gridBitmap(
        _ matrix: ModuleMatrix, availableWidth: Int, availableHeight: Int, cell: PixelSize,
        geometry: ScreenGeometry
    ) throws(SymbolError) -> BitImage {
        let module = min(
            availableWidth / matrix.totalColumns, availableHeight / matrix.totalModuleRows,
            maximumModulePixels)
        guard module >= 1 else {
            throw .terminalTooNarrow(
                requiredColumns: (matrix.totalColumns + cell.width - 1) / cell.width + 2,
                availableColumns: geometry.columns)
        }
        return MatrixRaster.image(of: matrix, moduleSize: module)
    }

    /// Takes the alternate screen (as `less` does) and hides the cursor.
    public static let enter = "\u{1B}[?1049h\u{1B}[?25l"

    /// Clears the card (a kitty image too), shows the cursor and leaves the alternate screen, so the
    /// screen is as it was and nothing of the card reaches the scrollback.
    public static func leave(renderer: TurnstileRenderer, throughTmux: Bool) -> String {
        "\u{1B}[0m\u{1B}[2J" + (renderer == .kitty ? wrapped(KittyGraphics.deleteImage, throughTmux) : "")
            + "\u{1B}[?25h\u{1B}[?1049l"
    }

    /// The whole screen as one string: clear, the drawing centred, the text below, the hint on the last row.
    /// `colour` turns on bold and dim text; `throughTmux` wraps image sequences.
    ///
    /// Blocks are always black on white, with or without `colour`: they are the picture a scanner reads,
    /// as the kitty and sixel images are, not decoration. In plain characters they would take the
    /// terminal's own colours, light bars on dark on a dark theme, which no scanner reads; reverse video
    /// is right only on a dark theme, explicit black (256-colour 16) on white (231) on every theme.
    public static func render(
        _ content: TurnstileContent, geometry: ScreenGeometry, renderer: TurnstileRenderer, colour: Bool,
        throughTmux: Bool = false, maximumSize: PixelSize? = nil
    ) throws(SymbolError) -> String {
        var screen = "\u{1B}[0m\u{1B}[H\u{1B}[2J"
        if renderer == .kitty { screen += wrapped(KittyGraphics.deleteImage, throughTmux) }
        let drawingRows: Int
        if renderer.drawsPixels, let cell = geometry.cellPixels,
            let image = try bitmap(for: content.drawing, geometry: geometry, maximumSize: maximumSize)
        {
            let columns = (image.width + cell.width - 1) / cell.width
            drawingRows = (image.height + cell.height - 1) / cell.height
            let top = topRow(drawingRows: drawingRows, geometry: geometry)
            screen += moveTo(row: top, column: (geometry.columns - columns) / 2 + 1)
            screen += try imageSequence(image, renderer: renderer, throughTmux: throughTmux)
            screen += caption(content, below: top + drawingRows, geometry: geometry, colour: colour)
        } else {
            let lines = try blockLines(content.drawing, geometry: geometry, palette: .blackOnWhite)
            drawingRows = lines.count
            let top = topRow(drawingRows: drawingRows, geometry: geometry)
            let width = lines.first.map(visibleWidth) ?? 0
            for (offset, line) in lines.enumerated() {
                screen += moveTo(row: top + offset, column: max(1, (geometry.columns - width) / 2 + 1)) + line
            }
            screen += caption(content, below: top + drawingRows, geometry: geometry, colour: colour)
        }
        return screen
    }

    /// The drawing in block characters, as large as the screen allows.
    static func blockLines(
        _ drawing: TurnstileContent.Drawing, geometry: ScreenGeometry, palette: TerminalArt.Palette
    ) throws(SymbolError) -> [String] {
        let availableRows = geometry.rows - reservedRows
        switch drawing {
        case .codabar(let symbol, let layout):
            let smallest = try TerminalArt.codabar(
                symbol, layout: layout, palette: palette, availableColumns: geometry.columns, barRows: 1)
            let width = smallest.first.map(visibleWidth) ?? 0
            // Cells are about twice as tall as wide: a sixth of the width in rows is a third in height.
            let barRows = max(1, min(availableRows - 2, max(5, width / 6)))
            return try TerminalArt.codabar(
                symbol, layout: layout, palette: palette, availableColumns: geometry.columns, barRows: barRows
            )
        case .qr(let code):
            return try TerminalArt.qr(
                code, palette: palette, availableColumns: geometry.columns, availableRows: availableRows)
        case .matrix(let matrix) where matrix.isLinear:
            let smallest = try TerminalArt.matrix(
                matrix, palette: palette, availableColumns: geometry.columns, barRows: 1)
            let width = smallest.first.map(visibleWidth) ?? 0
            let barRows = max(1, min(availableRows - 2, max(5, width / 6)))
            return try TerminalArt.matrix(
                matrix, palette: palette, availableColumns: geometry.columns, barRows: barRows)
        case .matrix(let matrix):
            return try TerminalArt.matrix(
                matrix, palette: palette, availableColumns: geometry.columns, availableRows: availableRows)
        }
    }

    static func imageSequence(_ image: BitImage, renderer: TurnstileRenderer, throughTmux: Bool)
        throws(SymbolError) -> String
    {
        switch renderer {
        case .sixel:
            return wrapped(SixelImage.encode(image), throughTmux)
        case .kitty, .iterm:
            let png: [UInt8]
            do { png = try PNGCodec.encode(image) } catch { throw .imageEncoding(error.description) }
            if renderer == .iterm {
                return wrapped(
                    ITermImage.display(png: png, width: image.width, height: image.height), throughTmux)
            }
            return KittyGraphics.display(png: png).map { wrapped($0, throughTmux) }.joined()
        case .blocks:
            return ""
        }
    }

    /// The top row (1-based) that centres `drawingRows` in the space left for the drawing.
    static func topRow(drawingRows: Int, geometry: ScreenGeometry) -> Int {
        2 + max(0, (geometry.rows - reservedRows - drawingRows) / 2)
    }

    /// The ID, the label and the hint, centred; the hint on the last row.
    static func caption(_ content: TurnstileContent, below row: Int, geometry: ScreenGeometry, colour: Bool)
        -> String
    {
        func centred(_ text: String, row: Int, style: String) -> String {
            let shown = String(text.prefix(max(0, geometry.columns)))
            let column = max(1, (geometry.columns - shown.count) / 2 + 1)
            return moveTo(row: row, column: column) + (colour ? style : "") + shown
                + (colour ? "\u{1B}[0m" : "")
        }
        var text = centred(content.caption, row: min(row + 1, geometry.rows - 2), style: "\u{1B}[1m")
        if let label = content.label, !label.isEmpty {
            // The label is the card file's text: shown, never obeyed, by the terminal.
            text += centred(label.terminalSafe, row: min(row + 2, geometry.rows - 1), style: "")
        }
        return text + centred(content.hint, row: geometry.rows, style: "\u{1B}[2m")
    }

    static func moveTo(row: Int, column: Int) -> String { "\u{1B}[\(max(1, row));\(max(1, column))H" }

    static func wrapped(_ sequence: String, _ throughTmux: Bool) -> String {
        throughTmux ? TmuxPassthrough.wrap(sequence) : sequence
    }

    /// Characters a line takes on screen, escape sequences left out.
    static func visibleWidth(_ line: String) -> Int {
        var count = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}

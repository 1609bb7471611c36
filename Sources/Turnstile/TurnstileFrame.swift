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
    /// The last line: how to close the view (wrapped on a narrow screen).
    public var hint: String
    /// The companion QR code, drawn with a word that says so when the barcode fits neither across nor
    /// turned.
    public var qrCode: QRSymbol?

    /// Content for the screen.
    public init(drawing: Drawing, caption: String, label: String?, hint: String, qrCode: QRSymbol? = nil) {
        self.drawing = drawing
        self.caption = caption
        self.label = label
        self.hint = hint
        self.qrCode = qrCode
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
///
/// A barcode too long for the screen's width is turned a quarter (a phone in portrait, a split pane);
/// when it fits neither way the companion QR code is drawn, with a word that says so, since a turnstile's
/// scanner may read only the barcode.
public enum TurnstileFrame {
    /// Rows kept free around the drawing when the hint takes one row: one above, a blank, the ID and the
    /// label below, the hint at the bottom.
    static let reservedRows = 5

    /// The bitmap a pixel renderer sends for `drawing` on a screen of `geometry` (across, or turned when
    /// that gives more pixels per module), or `nil` when the cell size is unknown. `maximumSize` bounds it
    /// (xterm draws sixel images up to 1000×1000 by default).
    public static func bitmap(
        for drawing: TurnstileContent.Drawing, geometry: ScreenGeometry, maximumSize: PixelSize? = nil
    ) throws(SymbolError) -> BitImage? {
        guard let cell = geometry.cellPixels else { return nil }
        var needs: [ScreenNeed] = []
        let fitting = CardCandidate.all(for: drawing, qrCode: nil).compactMap {
            candidate -> (image: BitImage, module: Int)? in
            let need = candidate.pixelNeed(cell: cell)
            needs.append(
                ScreenNeed(form: candidate.form, columns: need.columns, rows: need.rows + reservedRows))
            return bitmap(
                candidate, geometry: geometry, cell: cell, textRows: reservedRows, maximumSize: maximumSize)
        }
        guard let best = largest(fitting) else {
            throw .terminalTooSmall(needs: needs, columns: geometry.columns, rows: geometry.rows)
        }
        return best.image
    }

    /// The bitmap of `candidate` with the most whole pixels per module that fits the screen less
    /// `textRows` and a column each side, and `maximumSize`.
    static func bitmap(
        _ candidate: CardCandidate, geometry: ScreenGeometry, cell: PixelSize, textRows: Int,
        maximumSize: PixelSize?
    ) -> (image: BitImage, module: Int)? {
        var width = (geometry.columns - 2) * cell.width
        var height = (geometry.rows - textRows) * cell.height
        if let maximumSize {
            width = min(width, maximumSize.width)
            height = min(height, maximumSize.height)
        }
        return candidate.bitmap(width: width, height: height, cell: cell)
    }

    /// The bitmap with the most pixels per module; the first of equals (across before turned).
    private static func largest(_ bitmaps: [(image: BitImage, module: Int)]) -> (
        image: BitImage, module: Int
    )? {
        bitmaps.reduce(nil) { best, next in (best.map { next.module > $0.module } ?? true) ? next : best }
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
    ///
    /// Blocks are drawn across when they fit, else turned, else the QR code; a bitmap across or turned,
    /// whichever has more pixels per module, and never larger than `maximumSize` (the terminal's image
    /// limit): when that leaves fewer than two pixels per module, blocks where they fit (see
    /// ``choose(_:geometry:cell:maximumSize:)``), else the QR code. Throws when nothing fits, with what each
    /// form needs.
    public static func render(
        _ content: TurnstileContent, geometry: ScreenGeometry, renderer: TurnstileRenderer, colour: Bool,
        throughTmux: Bool = false, maximumSize: PixelSize? = nil
    ) throws(SymbolError) -> String {
        let cell = renderer.drawsPixels ? geometry.cellPixels : nil
        let (drawn, caption) = try choose(content, geometry: geometry, cell: cell, maximumSize: maximumSize)
        var screen = "\u{1B}[0m\u{1B}[H\u{1B}[2J"
        if renderer == .kitty { screen += wrapped(KittyGraphics.deleteImage, throughTmux) }
        switch drawn {
        case .image(let image, _):
            let cell = cell ?? PixelSize(width: 1, height: 1)
            let columns = (image.width + cell.width - 1) / cell.width
            let drawingRows = (image.height + cell.height - 1) / cell.height
            let top = topRow(drawingRows: drawingRows, textRows: caption.rows, geometry: geometry)
            screen += moveTo(row: top, column: (geometry.columns - columns) / 2 + 1)
            screen += try imageSequence(image, renderer: renderer, throughTmux: throughTmux)
            screen += caption.text(below: top + drawingRows, screenRows: geometry.rows, colour: colour)
        case .lines(let lines):
            let top = topRow(drawingRows: lines.count, textRows: caption.rows, geometry: geometry)
            let width = lines.first.map(\.visibleWidth) ?? 0
            for (offset, line) in lines.enumerated() {
                screen += moveTo(row: top + offset, column: max(1, (geometry.columns - width) / 2 + 1)) + line
            }
            screen += caption.text(below: top + lines.count, screenRows: geometry.rows, colour: colour)
        }
        return screen
    }

    /// The word under a QR code drawn instead of the barcode: why, what the barcode needs, and that a
    /// turnstile's scanner may not read it.
    static func qrNotice(needs: [ScreenNeed], geometry: ScreenGeometry) -> String {
        let wanted = needs.map { $0.wording(columns: geometry.columns, rows: geometry.rows) }
        return "too small for the barcode (it needs \(wanted.joined(separator: ", or "))): "
            + "this is its QR code, which not every scanner reads"
    }

    /// A screen that says the window is too small for the card (after a resize; the view stays open).
    public static func tooSmall(
        _ error: SymbolError, geometry: ScreenGeometry, renderer: TurnstileRenderer, throughTmux: Bool
    ) -> String {
        var screen = "\u{1B}[0m\u{1B}[H\u{1B}[2J"
        if renderer == .kitty { screen += wrapped(KittyGraphics.deleteImage, throughTmux) }
        let advice = error.isTerminalTooSmall ? "; enlarge the window" : ""
        let lines = TurnstileCaption.wrap(error.description + advice, columns: geometry.columns)
        let top = max(1, (geometry.rows - lines.count) / 2 + 1)
        for (offset, line) in lines.enumerated() where top + offset <= geometry.rows {
            screen +=
                moveTo(row: top + offset, column: max(1, (geometry.columns - line.count) / 2 + 1)) + line
        }
        return screen
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

    /// The top row (1-based) that centres `drawingRows` in the space the text leaves.
    static func topRow(drawingRows: Int, textRows: Int, geometry: ScreenGeometry) -> Int {
        2 + max(0, (geometry.rows - textRows - drawingRows) / 2)
    }

    static func moveTo(row: Int, column: Int) -> String { "\u{1B}[\(max(1, row));\(max(1, column))H" }

    static func wrapped(_ sequence: String, _ throughTmux: Bool) -> String {
        throughTmux ? TmuxPassthrough.wrap(sequence) : sequence
    }
}

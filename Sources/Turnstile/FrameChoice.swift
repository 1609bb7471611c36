import Imaging
import Symbols
import TerminalGraphics

/// A drawing made for the screen: lines of block characters, or a bitmap at a whole number of pixels per
/// module.
enum Drawn {
    case lines([String])
    case image(BitImage, module: Int)

    /// Pixels per module of an image (blocks are never weighed).
    var module: Int {
        guard case .image(_, let module) = self else { return 0 }
        return module
    }
}

extension TurnstileFrame {
    /// Fewest whole pixels per module a bitmap is drawn with while the same form fits in block characters.
    /// Codabar's narrowest bar is 7.5 mil (0.19 mm): two pixels are that wide on a screen of up to 267 dpi,
    /// one pixel only below 134 dpi, and most laptop screens are finer (ARCHITECTURE §11).
    static let smallestScanningModulePixels = 2

    /// One form of the card tried on the screen, with the text under it.
    private struct Option {
        let candidate: CardCandidate
        let caption: TurnstileCaption
        let image: (image: BitImage, module: Int)?
        let blocksFit: Bool
        let drawingRows: Int
    }

    /// The drawing for the screen and the text under it: the barcode before its QR code; for each, with a
    /// pixel renderer, the bitmap with the most pixels per module (across or turned) when it has at least
    /// ``smallestScanningModulePixels``, else block characters when they fit (a terminal whose image limit
    /// is smaller than its window), else a bitmap of one pixel per module; blocks alone without pixels:
    /// across, else turned. Throws when nothing fits, with what each form needs.
    static func choose(
        _ content: TurnstileContent, geometry: ScreenGeometry, cell: PixelSize?, maximumSize: PixelSize?
    ) throws(SymbolError) -> (drawn: Drawn, caption: TurnstileCaption) {
        var needs: [ScreenNeed] = []
        var barcode: [Option] = []
        var qrCode: [Option] = []
        for candidate in CardCandidate.all(for: content.drawing, qrCode: content.qrCode) {
            let notice = candidate.form == .qrCode ? qrNotice(needs: needs, geometry: geometry) : nil
            let caption = TurnstileCaption(content, notice: notice, columns: geometry.columns)
            let drawingRows = geometry.rows - caption.rows
            let blockNeed = candidate.blockNeed
            let blocksFit = blockNeed.columns <= geometry.columns && blockNeed.rows <= drawingRows
            var image: (image: BitImage, module: Int)?
            var need = blockNeed
            if let cell {
                image = bitmap(
                    candidate, geometry: geometry, cell: cell, textRows: caption.rows,
                    maximumSize: maximumSize)
                need = candidate.pixelNeed(cell: cell)
                // A form whose smallest image is past the terminal's image limit fits no window as an image:
                // what it needs is cells for blocks.
                if image == nil, let maximumSize,
                    candidate.bitmap(width: maximumSize.width, height: maximumSize.height, cell: cell) == nil
                {
                    need = blockNeed
                }
            }
            // The caption wraps at the width the form needs, not at this terminal's narrower one.
            let captionRows =
                need.columns > geometry.columns
                ? TurnstileCaption(content, notice: notice, columns: need.columns).rows : caption.rows
            needs.append(
                ScreenNeed(form: candidate.form, columns: need.columns, rows: need.rows + captionRows))
            let option = Option(
                candidate: candidate, caption: caption, image: image, blocksFit: blocksFit,
                drawingRows: drawingRows)
            if candidate.form == .qrCode { qrCode.append(option) } else { barcode.append(option) }
        }
        for group in [barcode, qrCode] {
            if cell != nil, let best = largest(group, atLeast: smallestScanningModulePixels) {
                return best
            }
            if let option = group.first(where: \.blocksFit) {
                let lines = try option.candidate.blockLines(
                    palette: .blackOnWhite, columns: geometry.columns, rows: option.drawingRows)
                return (.lines(lines), option.caption)
            }
            if cell != nil, let best = largest(group, atLeast: 1) { return best }
        }
        throw .terminalTooSmall(needs: needs, columns: geometry.columns, rows: geometry.rows)
    }

    /// The option whose bitmap has the most pixels per module, at least `module`; the first of equals
    /// (across before turned).
    private static func largest(_ options: [Option], atLeast module: Int) -> (
        drawn: Drawn, caption: TurnstileCaption
    )? {
        var best: (drawn: Drawn, caption: TurnstileCaption)?
        for option in options {
            guard let image = option.image, image.module >= module else { continue }
            if best.map({ image.module > $0.drawn.module }) ?? true {
                best = (.image(image.image, module: image.module), option.caption)
            }
        }
        return best
    }
}

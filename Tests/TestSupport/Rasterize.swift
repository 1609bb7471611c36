import Imaging

/// Paints block-character art the way a terminal font does: each cell `cellWidth` × `cellHeight` pixels,
/// half blocks filling their half. Escape sequences are dropped.
public func rasterize(_ lines: [String], cellWidth: Int = 8, cellHeight: Int = 16) -> GrayImage {
    let cells = lines.map { line -> [Character] in
        var result: [Character] = []
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                inEscape = !(character == "m")
            } else {
                result.append(character)
            }
        }
        return result
    }
    let columns = cells.map(\.count).max() ?? 0
    var image = BitImage(width: columns * cellWidth, height: cells.count * cellHeight)
    for (row, line) in cells.enumerated() {
        for (column, character) in line.enumerated() {
            let x = column * cellWidth
            let y = row * cellHeight
            let half = cellWidth / 2
            let halfHeight = cellHeight / 2
            switch character {
            case "█": image.fill(x: x, y: y, width: cellWidth, height: cellHeight)
            case "▌": image.fill(x: x, y: y, width: half, height: cellHeight)
            case "▐": image.fill(x: x + half, y: y, width: cellWidth - half, height: cellHeight)
            case "▀": image.fill(x: x, y: y, width: cellWidth, height: halfHeight)
            case "▄": image.fill(x: x, y: y + halfHeight, width: cellWidth, height: cellHeight - halfHeight)
            default: break
            }
        }
    }
    return image.grayImage
}

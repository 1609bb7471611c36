import Imaging

/// Paints terminal output the way a terminal does: cells `cellWidth` × `cellHeight` pixels, colours from
/// the 256-colour codes gymcard writes (16 black, 231 white; without codes dark on light), a space
/// showing the background, half blocks splitting the cell between foreground and background.
///
/// `fullBlockWidth` models fonts whose `█` glyph is narrower than the cell: xterm's default font draws
/// it 9 px wide in an 11 px cell, which is the default here so a regression to `█` in colour output fails.
/// `darkTheme` paints text without colour codes as a dark theme does: light on dark.
public func rasterize(
    _ lines: [String], cellWidth: Int = 11, cellHeight: Int = 22, fullBlockWidth: Int = 9,
    darkTheme: Bool = false
) -> GrayImage {
    var rows: [[(glyph: Character, foregroundDark: Bool, backgroundDark: Bool)]] = []
    for line in lines {
        var cells: [(glyph: Character, foregroundDark: Bool, backgroundDark: Bool)] = []
        var foregroundDark = !darkTheme
        var backgroundDark = darkTheme
        var escape: String?
        for character in line {
            if character == "\u{1B}" {
                escape = ""
            } else if var code = escape {
                if character == "m" {
                    let numbers = code.dropFirst().split(separator: ";").compactMap { Int($0) }
                    if numbers == [0] || numbers.isEmpty {
                        foregroundDark = !darkTheme
                        backgroundDark = darkTheme
                    }
                    var index = 0
                    while index + 2 < numbers.count {
                        if numbers[index] == 38, numbers[index + 1] == 5 {
                            foregroundDark = numbers[index + 2] == 16
                        }
                        if numbers[index] == 48, numbers[index + 1] == 5 {
                            backgroundDark = numbers[index + 2] == 16
                        }
                        index += 3
                    }
                    escape = nil
                } else {
                    code.append(character)
                    escape = code
                }
            } else {
                cells.append((character, foregroundDark, backgroundDark))
            }
        }
        rows.append(cells)
    }
    let columns = rows.map(\.count).max() ?? 0
    var image = BitImage(width: columns * cellWidth, height: rows.count * cellHeight)
    let half = cellWidth / 2
    let halfHeight = cellHeight / 2
    for (row, cells) in rows.enumerated() {
        for (column, cell) in cells.enumerated() {
            let x = column * cellWidth
            let y = row * cellHeight
            if cell.backgroundDark { image.fill(x: x, y: y, width: cellWidth, height: cellHeight) }
            guard cell.foregroundDark != cell.backgroundDark else {
                if cell.glyph == "█", cell.foregroundDark {
                    image.fill(x: x, y: y, width: fullBlockWidth, height: cellHeight)
                }
                continue
            }
            // Paint the foreground part of the glyph; a light foreground on a dark background clears.
            var area = BitImage(width: cellWidth, height: cellHeight)
            switch cell.glyph {
            case "█": area.fill(x: 0, y: 0, width: fullBlockWidth, height: cellHeight)
            case "▌": area.fill(x: 0, y: 0, width: half, height: cellHeight)
            case "▐": area.fill(x: half, y: 0, width: cellWidth - half, height: cellHeight)
            case "▀": area.fill(x: 0, y: 0, width: cellWidth, height: halfHeight)
            case "▄": area.fill(x: 0, y: halfHeight, width: cellWidth, height: cellHeight - halfHeight)
            default: break
            }
            for dy in 0..<cellHeight {
                for dx in 0..<cellWidth where area[dx, dy] { image[x + dx, y + dy] = cell.foregroundDark }
            }
        }
    }
    return image.grayImage
}

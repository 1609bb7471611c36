import Imaging

/// A 5×7 pixel font for the characters a Codabar symbol can print, so text under the bars needs no
/// system font and renders identically everywhere.
enum BitmapFont {
    static let glyphWidth = 5
    static let glyphHeight = 7
    /// Blank columns between glyphs.
    static let spacing = 1

    /// Pixel width of a line of text at one font pixel per image pixel.
    static func width(of text: String) -> Int {
        text.isEmpty ? 0 : text.count * (glyphWidth + spacing) - spacing
    }

    /// The dark font pixels of `text`, as (column, row) offsets at one font pixel per unit.
    static func darkPixels(of text: String) -> [(x: Int, y: Int)] {
        var pixels: [(x: Int, y: Int)] = []
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            let left = index * (glyphWidth + spacing)
            for (y, row) in rows.enumerated() {
                for (x, cell) in row.enumerated() where cell == "#" { pixels.append((left + x, y)) }
            }
        }
        return pixels
    }

    /// Draws `text` into an image with its top-left corner at (x, y), `scale` image pixels per font pixel.
    static func draw(_ text: String, into image: inout BitImage, x: Int, y: Int, scale: Int) {
        for pixel in darkPixels(of: text) {
            image.fill(x: x + pixel.x * scale, y: y + pixel.y * scale, width: scale, height: scale)
        }
    }

    private static let glyphs: [Character: [String]] = [
        "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
        "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
        "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
        "3": ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
        "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
        "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
        "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
        "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
        "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
        "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
        "-": [".....", ".....", ".....", "#####", ".....", ".....", "....."],
        "$": ["..#..", ".####", "#.#..", ".###.", "..#.#", "####.", "..#.."],
        ":": [".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."],
        "/": [".....", "....#", "...#.", "..#..", ".#...", "#....", "....."],
        ".": [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."],
        "+": [".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."],
        "A": [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
        "B": ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."],
        "C": [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."],
        "D": ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."],
    ]
}

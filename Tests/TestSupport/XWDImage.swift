import Imaging

/// Reads an X Window Dump (what `xwd -root` writes) of a TrueColor screen into grey levels, so a test can
/// hand a real terminal's screenshot to libzbar.
public enum XWDImage {
    /// Not a 32-bit TrueColor XWD file.
    public struct Malformed: Error {}

    /// The screenshot in grey levels (ITU-R 601 weights).
    public static func gray(_ bytes: [UInt8]) throws -> GrayImage {
        func card32(_ index: Int) -> Int {
            let offset = index * 4
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        guard bytes.count >= 100, card32(1) == 7 else { throw Malformed() }
        let headerSize = card32(0)
        let width = card32(4)
        let height = card32(5)
        let byteOrder = card32(7)
        let bitsPerPixel = card32(11)
        let bytesPerLine = card32(12)
        let masks = (card32(14), card32(15), card32(16))
        let colours = card32(19)
        let start = headerSize + 12 * colours
        guard bitsPerPixel == 32, bytes.count >= start + bytesPerLine * height else { throw Malformed() }
        func channel(_ pixel: Int, _ mask: Int) -> Int { (pixel & mask) >> mask.trailingZeroBitCount }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = start + y * bytesPerLine + x * 4
                let word = (0..<4).map { Int(bytes[offset + $0]) }
                let pixel =
                    byteOrder == 0
                    ? word[0] | word[1] << 8 | word[2] << 16 | word[3] << 24
                    : word[3] | word[2] << 8 | word[1] << 16 | word[0] << 24
                let red = channel(pixel, masks.0)
                let green = channel(pixel, masks.1)
                let blue = channel(pixel, masks.2)
                pixels[y * width + x] = UInt8((red * 299 + green * 587 + blue * 114) / 1000)
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}

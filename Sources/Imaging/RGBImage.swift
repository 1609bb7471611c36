/// An 8-bit RGB image, row by row, three bytes a pixel (charts such as the occupancy heatmap).
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Red, green and blue of each pixel, rows top to bottom.
    public var pixels: [UInt8]

    /// A white image.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 3)
    }

    /// A colour as red, green and blue.
    public struct Colour: Sendable, Equatable {
        /// Red, 0–255.
        public var red: UInt8
        /// Green, 0–255.
        public var green: UInt8
        /// Blue, 0–255.
        public var blue: UInt8

        /// Creates a colour.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// The colour at (x, y).
    public subscript(x: Int, y: Int) -> Colour {
        let offset = (y * width + x) * 3
        return Colour(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
    }

    /// Paints a rectangle, clipped to the image.
    public mutating func fill(
        x: Int, y: Int, width fillWidth: Int, height fillHeight: Int, with colour: Colour
    ) {
        for row in max(0, y)..<min(height, y + fillHeight) {
            for column in max(0, x)..<min(width, x + fillWidth) {
                let offset = (row * width + column) * 3
                pixels[offset] = colour.red
                pixels[offset + 1] = colour.green
                pixels[offset + 2] = colour.blue
            }
        }
    }

    /// Draws `text` in the built-in bitmap font with its top-left corner at (x, y).
    public mutating func draw(_ text: String, x: Int, y: Int, scale: Int, colour: Colour) {
        for pixel in BitmapFont.darkPixels(of: text) {
            fill(x: x + pixel.x * scale, y: y + pixel.y * scale, width: scale, height: scale, with: colour)
        }
    }
}

/// An 8-bit greyscale image, row-major, 0 black to 255 white.
public struct GrayImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height` samples, row by row.
    public var pixels: [UInt8]

    /// An image from its samples; `pixels.count` must equal `width × height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A uniformly filled image.
    public init(width: Int, height: Int, filledWith value: UInt8 = 255) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: value, count: width * height))
    }

    /// The sample at a column and row.
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// A two-colour image (dark or light pixels), the natural form of a rendered barcode.
public struct BitImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `true` is dark, row by row.
    public var isDark: [Bool]

    /// An all-light image.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative size")
        self.width = width
        self.height = height
        self.isDark = [Bool](repeating: false, count: width * height)
    }

    /// Whether the pixel at a column and row is dark.
    public subscript(x: Int, y: Int) -> Bool {
        get { isDark[y * width + x] }
        set { isDark[y * width + x] = newValue }
    }

    /// Darkens a rectangle, clipped to the image.
    public mutating func fill(x: Int, y: Int, width fillWidth: Int, height fillHeight: Int) {
        let left = max(0, x)
        let right = min(width, x + fillWidth)
        let top = max(0, y)
        let bottom = min(height, y + fillHeight)
        guard left < right, top < bottom else { return }
        for row in top..<bottom {
            let base = row * width
            for column in left..<right { isDark[base + column] = true }
        }
    }

    /// The same picture as 8-bit grey (dark 0, light 255).
    public var grayImage: GrayImage {
        GrayImage(width: width, height: height, pixels: isDark.map { $0 ? 0 : 255 })
    }
}

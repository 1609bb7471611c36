import CPNG

/// PNG through libpng's simplified `png_image_*` API, which reports errors by return value and never
/// longjmps into Swift.
public enum PNGCodec {
    /// A 1-bit palette PNG of a two-colour image: the smallest faithful encoding of a barcode.
    ///
    /// The simplified API writes a colour-mapped image with two entries at bit depth 1.
    public static func encode(_ image: BitImage) throws(ImagingError) -> [UInt8] {
        // Palette entry 0 is white and 1 black, so a Bool's byte (0 or 1) is already the palette index:
        // libpng reads the pixels straight from the image's storage, with no copy.
        let palette: [UInt8] = [255, 255, 255, 0, 0, 0]
        let png = try image.isDark.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(
                    width: image.width, height: image.height, format: gymcard_png_format_rgb_colormap(),
                    colormapEntries: 2, pixels: pixels, colormap: palette)
            }
        }.get()
        // The simplified API always tags the file sRGB. Pure black and white are the same in every colour
        // space, so the 13-byte chunk says nothing here; chunks are self-delimiting, so dropping it
        // leaves a valid file (a tenth of a barcode PNG).
        return removingChunk("sRGB", from: png)
    }

    /// An 8-bit greyscale PNG.
    public static func encode(_ image: GrayImage) throws(ImagingError) -> [UInt8] {
        try image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(
                    width: image.width, height: image.height, format: gymcard_png_format_gray(),
                    colormapEntries: 0,
                    pixels: pixels, colormap: nil)
            }
        }.get()
    }

    /// An 8-bit RGB PNG.
    public static func encode(_ image: RGBImage) throws(ImagingError) -> [UInt8] {
        try image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(
                    width: image.width, height: image.height, format: gymcard_png_format_rgb(),
                    colormapEntries: 0, pixels: pixels, colormap: nil)
            }
        }.get()
    }

    /// The PNG without any chunk of the given type.
    static func removingChunk(_ type: String, from png: [UInt8]) -> [UInt8] {
        let target = Array(type.utf8)
        var output = Array(png.prefix(8))
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            guard end <= png.count else { return png }
            if !png[offset + 4..<offset + 8].elementsEqual(target) { output += png[offset..<end] }
            offset = end
        }
        return offset == png.count ? output : png
    }

    /// Decodes any PNG (palette, grey, colour, 16-bit, with alpha composited onto white) to 8-bit grey.
    ///
    /// The header's dimensions are checked against ``ImageLimits`` before the pixel buffer is allocated.
    ///
    /// A PNG whose longer side is at least twice `minimumLongSide` is decoded reduced, row by row: each
    /// pixel the mean of a block of `longer side / minimumLongSide` pixels square, so that memory stays
    /// the size of the result (a 14000×14000 scan needs 4 MB, not 196).
    public static func decodeGray(_ bytes: [UInt8], minimumLongSide: Int = .max) throws(ImagingError)
        -> GrayImage
    {
        guard bytes.starts(with: signature) else { throw .unrecognizedFormat }
        var image = png_image()
        image.version = gymcard_png_image_version()
        let began = bytes.withUnsafeBytes { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        guard began != 0 else { throw .corrupt(format: "PNG", detail: message(of: &image)) }
        defer { png_image_free(&image) }
        let width = Int(image.width)
        let height = Int(image.height)
        try ImageLimits.check(width: width, height: height, format: "PNG")
        let factor = minimumLongSide == .max ? 1 : Swift.max(width, height) / Swift.max(1, minimumLongSide)
        if factor >= 2 { return try decodeReduced(bytes, width: width, height: height, factor: factor) }
        image.format = gymcard_png_format_gray()
        var pixels = [UInt8](repeating: 255, count: width * height)
        var white = png_color(red: 255, green: 255, blue: 255)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, &white, buffer.baseAddress, 0, nil)
        }
        // finish_read frees the image's internals itself, also on failure.
        guard finished != 0 else { throw .corrupt(format: "PNG", detail: message(of: &image)) }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    private static func decodeReduced(_ bytes: [UInt8], width: Int, height: Int, factor: Int)
        throws(ImagingError)
        -> GrayImage
    {
        let reducedWidth = (width + factor - 1) / factor
        let reducedHeight = (height + factor - 1) / factor
        var pixels = [UInt8](repeating: 255, count: reducedWidth * reducedHeight)
        var reader = gymcard_png_reader()
        let succeeded = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                reader.data = source.baseAddress
                reader.size = source.count
                return gymcard_png_read_gray_reduced(
                    &reader, UInt32(factor), destination.baseAddress, reducedWidth, reducedHeight)
            }
        }
        guard succeeded != 0 else {
            let message = withUnsafeBytes(of: &reader.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw .corrupt(format: "PNG", detail: message.isEmpty ? "libpng gave no reason" : message)
        }
        return GrayImage(width: reducedWidth, height: reducedHeight, pixels: pixels)
    }

    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func write(
        width: Int, height: Int, format: png_uint_32, colormapEntries: png_uint_32,
        pixels: UnsafeRawBufferPointer,
        colormap: [UInt8]?
    ) throws(ImagingError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .encodingFailed(detail: "the image has no pixels") }
        var image = png_image()
        image.version = gymcard_png_image_version()
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = format
        image.colormap_entries = colormapEntries
        // One pass into a buffer sized for the uncompressed data; png_image_write_to_memory reports the
        // size it needs when that is not enough (incompressible noise), and the second pass uses it.
        let bytesPerPixel = format == gymcard_png_format_rgb() ? 3 : 1
        var capacity = height * (width * bytesPerPixel + 1) + 1024
        for _ in 0..<2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var size = capacity
            let written = output.withUnsafeMutableBytes { destination in
                colormapBytes(colormap) { map in
                    png_image_write_to_memory(
                        &image, destination.baseAddress, &size, 0, pixels.baseAddress, 0, map)
                }
            }
            if written != 0 { return Array(output.prefix(size)) }
            guard size > capacity else { break }
            capacity = size
            image.warning_or_error = 0
        }
        throw .encodingFailed(detail: message(of: &image))
    }

    private static func colormapBytes(_ colormap: [UInt8]?, _ body: (UnsafeRawPointer?) -> Int32) -> Int32 {
        guard let colormap else { return body(nil) }
        return colormap.withUnsafeBytes { body($0.baseAddress) }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "libpng gave no reason" : text
        }
    }
}

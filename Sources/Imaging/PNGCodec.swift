import CPNG

/// PNG through libpng: its simplified `png_image_*` API, which reports errors by return value and never
/// longjmps into Swift, and for barcodes its full API, driven from C in the CPNG shim so that a longjmp
/// never crosses a Swift frame.
public enum PNGCodec {
    /// A 1-bit greyscale PNG of a two-colour image: the smallest faithful encoding of a barcode.
    ///
    /// Written with zint's compression settings (zlib level 9, rows unfiltered) and without the palette
    /// zint writes, so a symbol's PNG is no larger than zint's for the same modules and scale.
    public static func encode(_ image: BitImage) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .encodingFailed(detail: "the image has no pixels")
        }
        var writer = gymcard_png_writer()
        defer { gymcard_png_writer_free(&writer) }
        // A Bool's byte is 0 or 1, the pixel values the shim packs: it reads the image's storage, with no
        // copy.
        let written = image.isDark.withUnsafeBytes { pixels in
            gymcard_png_write_bilevel(
                &writer, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), png_uint_32(image.width),
                png_uint_32(image.height))
        }
        guard written != 0, let data = writer.data else {
            let message = withUnsafeBytes(of: &writer.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw .encodingFailed(detail: message.isEmpty ? "libpng gave no reason" : message)
        }
        return Array(UnsafeBufferPointer(start: data, count: writer.size))
    }

    /// An 8-bit greyscale PNG.
    public static func encode(_ image: GrayImage) throws(ImagingError) -> [UInt8] {
        try image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(
                    width: image.width, height: image.height, format: gymcard_png_format_gray(),
                    pixels: pixels)
            }
        }.get()
    }

    /// An 8-bit RGB PNG.
    public static func encode(_ image: RGBImage) throws(ImagingError) -> [UInt8] {
        try image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(
                    width: image.width, height: image.height, format: gymcard_png_format_rgb(), pixels: pixels
                )
            }
        }.get()
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
        width: Int, height: Int, format: png_uint_32, pixels: UnsafeRawBufferPointer
    ) throws(ImagingError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .encodingFailed(detail: "the image has no pixels") }
        var image = png_image()
        image.version = gymcard_png_image_version()
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = format
        // One pass into a buffer sized for the uncompressed data; png_image_write_to_memory reports the
        // size it needs when that is not enough (incompressible noise), and the second pass uses it.
        let bytesPerPixel = format == gymcard_png_format_rgb() ? 3 : 1
        var capacity = height * (width * bytesPerPixel + 1) + 1024
        for _ in 0..<2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var size = capacity
            let written = output.withUnsafeMutableBytes { destination in
                png_image_write_to_memory(
                    &image, destination.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
            }
            if written != 0 { return Array(output.prefix(size)) }
            guard size > capacity else { break }
            capacity = size
            image.warning_or_error = 0
        }
        throw .encodingFailed(detail: message(of: &image))
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "libpng gave no reason" : text
        }
    }
}
